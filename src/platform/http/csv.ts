import { stringify } from 'csv-stringify/sync'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** A plain number, which a spreadsheet reads as one whatever its sign. */
const NUMBER = /^[+-]?\d+(\.\d+)?$/

/**
 * OWASP's advice against CSV injection: a text cell that a spreadsheet would run as a formula (it starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so it is shown, not run. Numbers stay numbers.
 */
export function neutralised(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell
}

/** Rows (a report's, the audit log's) as RFC 4180 CSV with a header row (the rows' own field names, in order). */
function toCsv(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const header = columns ?? (rows[0] ? Object.keys(rows[0]) : [])
  return stringify(rows as Record<string, unknown>[], {
    header: true,
    columns: [...header],
    cast: { string: neutralised },
  })
}

/** JSON, or CSV when the query says `format=csv` or the client accepts text/csv (and not JSON first). */
export function wantsCsv(request: FastifyRequest<{ Querystring: { format?: 'json' | 'csv' } }>): boolean {
  if (request.query.format) return request.query.format === 'csv'
  const accept = String(request.headers.accept ?? '')
  return accept.includes('text/csv') && accept.indexOf('text/csv') < (accept.indexOf('json') + 1 || Infinity)
}

/** Answers `rows` as a CSV attachment named `filename`. */
export function sendCsv(
  reply: FastifyReply,
  filename: string,
  rows: readonly Record<string, unknown>[],
  columns?: readonly string[],
) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(toCsv(rows, columns))
}
