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
 * Applies pending SQL migrations as the database owner (only those named in `only`, in name order, when given).
 * node-pg-migrate holds a PostgreSQL advisory lock while it runs, so several instances starting at once apply each
 * migration exactly once.
 */
export async function migrate(
  connectionString: string,
  log: (msg: string) => void = () => {},
  only?: readonly string[],
): Promise<string[]> {
  if (only === undefined) return migrateRetrying(connectionString, log)
  const applied: string[] = []
  for (const file of [...only].sort()) applied.push(...(await migrateRetrying(connectionString, log, file)))
  return applied
}

async function migrateRetrying(connectionString: string, log: (msg: string) => void, file?: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(connectionString, log, file)
    } catch (error) {
      if (!isRoleGrantRace(error) || attempt === 3) throw error
    }
  }
}

/**
 * Roles are the cluster's, not the database's, and the migration lock is the database's: two databases of one
 * server migrating at once (deployments, test files) can both grant the app role, and the second grant fails
 * on the membership the first just made. The migrations ran in one transaction, rolled back whole; run again,
 * they find the grant made.
 */
function isRoleGrantRace(error: unknown): boolean {
  const e = error as { code?: string; table?: string }
  return e?.code === '23505' && (e.table === 'pg_auth_members' || e.table === 'pg_authid')
}

async function migrateOnce(connectionString: string, log: (msg: string) => void, file?: string) {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    const applied = await runner({
      dbClient: client,
      dir: migrationsDir,
      direction: 'up',
      file,
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
