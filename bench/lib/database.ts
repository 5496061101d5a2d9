import { randomBytes } from 'node:crypto'
import { MERCHANT_SCOPES } from '../../src/modules/auth/index.ts'
import type { Database } from '../../src/platform/db/database.ts'
import type { RequestContext } from '../../src/platform/http/context.ts'
import { systemContext } from '../../src/platform/http/system-context.ts'
import type { Services } from '../../src/services.ts'
import { createServerDatabase, type ServerDatabase, sql } from '../../test/support/server-database.ts'

/** A fresh database `opentill_bench_…` on the server, dropped by `drop()`. */
export function createBenchDatabase(serverUrl: string): Promise<ServerDatabase> {
  return createServerDatabase(serverUrl, 'opentill_bench')
}

/**
 * ANALYZE of the whole bench database, as autovacuum does within a minute of a shop's first sales, for scenarios
 * that write sales. A fresh database has no statistics, and the plan PostgreSQL caches on each connection for a
 * foreign-key check made while its table was empty (an order line's check of its order by an index on org_id
 * alone, reading every order of the org) stays until the table is next analyzed, which rounds of a few seconds
 * on a new database never reach: measured, 187 orders/s before and 497 after (docs/benchmarks.md "A fresh database's
 * cached plans").
 */
export function analyzeAll(ownerUrl: string): Promise<void> {
  return sql(ownerUrl, 'ANALYZE')
}

/** The benchmark's org, on the enterprise plan so the rate limiter never refuses. */
export async function createBenchOrg(services: Services) {
  const { org, owner } = await services.orgs.createOrg({
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    password: randomBytes(12).toString('hex'),
    currency: 'USD',
    plan: 'enterprise',
  })
  return { ...org, ownerId: owner.id as string }
}

/** The org's owner, as a login would act: what saves automation rules (a rule acts with its author's rights). */
export function ownerContext(database: Database, org: { id: string; ownerId: string }): RequestContext {
  return {
    ...systemContext(database, org.id, MERCHANT_SCOPES),
    actor: { kind: 'user', userId: org.ownerId, clientId: 'first-party' },
  }
}
