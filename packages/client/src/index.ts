/** @opentill/client: the OpenTill API, typed from its OpenAPI document (README.md). */
export { createOpenTillClient, type OpenTillClient, type OpenTillClientOptions, type Session } from './client.ts'
export { exponentOf, fromMinor, sum, toMinor } from './money.ts'
export { each } from './pages.ts'
export { type CodeOf, OpenTillProblem, type ProblemBody, unwrap } from './problem.ts'
export { reportCsv } from './reports.ts'
export type { components, operations, paths } from './schema.ts'
