import { stringify } from 'csv-stringify/sync'

/** A plain number, which a spreadsheet reads as one whatever its sign. */
const NUMBER = /^[+-]?\d+(\.\d+)?$/

/**
 * OWASP's advice against CSV injection: a text cell that a spreadsheet would run as a formula (it starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so it is shown, not run. Numbers stay numbers.
 */
export function neutralised(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell
}

/** A report's rows as RFC 4180 CSV with a header row (the rows' own field names, in order). */
export function toCsv(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const header = columns ?? (rows[0] ? Object.keys(rows[0]) : [])
  return stringify(rows as Record<string, unknown>[], {
    header: true,
    columns: [...header],
    cast: { string: neutralised },
  })
}
