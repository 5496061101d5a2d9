import { randomBytes } from 'node:crypto'
import pg from 'pg'
import type { Services } from '../../src/services.ts'

/** One statement on a connection of its own (bulk seeding through the owner, VACUUM outside a transaction). */
export async function sql(url: string, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text, params)
  } finally {
    await client.end()
  }
}

/** A fresh database `opentill_bench_…` on the server, dropped by `drop()`. */
export async function createBenchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `opentill_bench_${randomBytes(4).toString('hex')}`
  await sql(serverUrl, `CREATE DATABASE ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => sql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
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
