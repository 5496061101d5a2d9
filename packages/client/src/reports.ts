import type { OpenTillClient } from './client.ts'
import { unwrap } from './problem.ts'
import type { paths } from './schema.ts'

/** The report paths that answer CSV too. */
type ReportPath = Extract<keyof paths, `/api/v1/reports/${string}`>

/** A report as CSV text (`format=csv`), e.g. for a spreadsheet: `await reportCsv(client, '/api/v1/reports/sales', { from, to })`. */
export async function reportCsv(
  client: OpenTillClient,
  path: ReportPath,
  query: Record<string, string | number | boolean>,
): Promise<string> {
  const answer = await unwrap(
    client.GET(path, { params: { query: { ...query, format: 'csv' } as never }, parseAs: 'text' }),
  )
  return answer as unknown as string
}
