import { stringify } from 'csv-stringify/sync'

/** A report's rows as RFC 4180 CSV with a header row (the rows' own field names, in order). */
export function toCsv(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const header = columns ?? (rows[0] ? Object.keys(rows[0]) : [])
  return stringify(rows as Record<string, unknown>[], { header: true, columns: [...header] })
}
