import { readdirSync } from 'node:fs'
import { runner } from 'node-pg-migrate'
import pg from 'pg'
import { fromRoot } from '../paths.ts'

const migrationsDir = fromRoot('db', 'migrations')

/**
 * Three migrations shipped after migrations numbered above them (0127, 0128), so databases of that time applied
 * them last; test/e2e/platform/migrations-order.test.ts shows that order gives the same schema as the files' own. No other
 * migration may be numbered below one a database has applied (docs/architecture.md "Migrations").
 */
export const LEGACY_OUT_OF_ORDER = ['0021_partner_plans', '0044_layby_cancelling', '0045_refunds_stalled']

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

/**
 * Refuses pending migrations numbered below the newest one the database has applied (but the legacy three): one
 * would run after migrations written later, against a schema its author never saw.
 */
async function checkNumbering(client: pg.Client): Promise<void> {
  const table = await client.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists")
  if (!table.rows[0]?.exists) return
  const applied = new Set(
    (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
  )
  const newest = [...applied].sort().at(-1)
  if (newest === undefined) return
  const below = migrationNames().filter((n) => !applied.has(n) && n < newest && !LEGACY_OUT_OF_ORDER.includes(n))
  if (below.length > 0)
    throw new Error(
      `migration ${below.join(', ')} is numbered below ${newest}, which this database has applied: give it the next number`,
    )
}

async function migrateOnce(connectionString: string, log: (msg: string) => void, file?: string) {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    if (file === undefined) await checkNumbering(client)
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
