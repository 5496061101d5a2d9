import { randomBytes } from 'node:crypto'
import type { Services } from '../../src/services.ts'
import { createServerDatabase, type ServerDatabase } from '../../test/support/server-database.ts'

/** A fresh database `opentill_bench_…` on the server, dropped by `drop()`. */
export function createBenchDatabase(serverUrl: string): Promise<ServerDatabase> {
  return createServerDatabase(serverUrl, 'opentill_bench')
}

/** The benchmark's org, on the enterprise plan so the rate limiter never refuses. */
export async function createBenchOrg(services: Services) {
  const { org } = await services.orgs.createOrg({
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    password: randomBytes(12).toString('hex'),
    currency: 'USD',
    plan: 'enterprise',
  })
  return org
}
