import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** One statement on a connection of its own: CREATE and DROP DATABASE, bulk seeding, VACUUM. */
export async function sql(url: string, text: string, params: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text, params)
  } finally {
    await client.end()
  }
}

export interface ServerDatabase {
  name: string
  url: string
  drop(): Promise<void>
}

/**
 * A new database `<prefix>_<random>` on the server of `serverUrl` (a URL with its user), a copy of `template` when
 * one is named; `drop()` removes it whoever is still connected. The test harness, the test run's template and the
 * benchmarks all make theirs here.
 */
export async function createServerDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<ServerDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  await sql(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: () => sql(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}
