/** What bench/run.ts hands every scenario: one running server, seeded with 10,000 products in one org. */
export interface BenchTarget {
  /** `server` (PostgreSQL 15 with Redis) or `embedded` (the embedded PostgreSQL of `npm start`). */
  engine: 'server' | 'embedded'
  /** Base address of the real app, e.g. http://127.0.0.1:41234 */
  apiUrl: string
  /** GET: the REST product list's bytes, from memory, on a bare Fastify (the ceiling). */
  bareUrl: string
  /** The same app on the same runtime without its metrics hooks, and without the org rate limit. */
  withoutMetricsUrl: string
  withoutOrgRateLimitUrl: string
  /** An owner's access token for the seeded org (all scopes). */
  token: string
  orgId: string
  /** The database owner's connection string, for scenarios that seed more. */
  ownerUrl: string
  /** The server process, whose CPU time per request the measurements report. */
  serverPid?: number
  /** Seconds per measurement and the number of alternating rounds. */
  durationS: number
  rounds: number
}

/** One line of the report. `ratio` is req/s relative to the bare route, when the scenario measures one. */
export interface BenchRow {
  engine: BenchTarget['engine']
  scenario: string
  reqPerSec: number
  p99Ms: number
  ratio?: number
  /** Server CPU time per request in microseconds (the app's process only, not the database's). */
  cpuUsPerReq?: number
  target?: string
  note?: string
}

/** What a file in bench/scenarios/ exports as default. */
export type Scenario = (target: BenchTarget) => Promise<BenchRow[]>
