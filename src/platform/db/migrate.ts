import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { runner } from 'node-pg-migrate'
import pg from 'pg'

const migrationsDir = fileURLToPath(new URL('../../../db/migrations', import.meta.url))

/** The migrations this version ships, in the order they apply. */
export function migrationNames(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => f.replace(/\.sql$/, ''))
    .sort()
}

/**
 * Applies pending SQL migrations as the database owner (at most `count` of them when given). node-pg-migrate
 * holds a PostgreSQL advisory lock while it runs, so several instances starting at once apply each migration
 * exactly once.
 */
export async function migrate(
  connectionString: string,
  log: (msg: string) => void = () => {},
  count?: number,
): Promise<string[]> {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    const applied = await runner({
      dbClient: client,
      dir: migrationsDir,
      direction: 'up',
      count,
      migrationsTable: 'schema_migrations',
      checkOrder: false,
      singleTransaction: true,
      log: () => {},
      logger: { debug() {}, info: log, warn: log, error: log },
    })
    return applied.map((m) => m.name)
  } finally {
    await client.end()
  }
}
