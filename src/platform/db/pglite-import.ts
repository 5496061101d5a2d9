import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { embeddedPaths, openEmbeddedServer } from './embedded.ts'
import { migrate, migrationNames } from './migrate.ts'

/** Files of DATA_DIR that belong to OpenTill itself, not to the PGlite cluster kept at its top. */
const OWN_ENTRIES = new Set(['postgres', 'postgres.password', 'opentill.pid', 'pglite'])

/** Rows are copied this many at a time, each batch one INSERT … SELECT over json_populate_recordset. */
const BATCH = 500

interface ImportResult {
  tables: number
  rows: number
  /** Where the PGlite files were moved; kept until the operator deletes them. */
  keptAt: string
}

interface PGliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>
  close(): Promise<void>
}

/**
 * `opentill migrate-embedded`: moves a PGlite-era DATA_DIR onto the embedded PostgreSQL. The PGlite files are moved
 * into DATA_DIR/pglite (kept as a backup), the new cluster gets the migrations PGlite had applied, every row is
 * copied through PostgreSQL's own text forms (row_to_json, json_populate_recordset: exact for every type), then
 * sequences are set and the remaining migrations applied. A failed run can simply be run again: it starts over
 * from the kept PGlite files.
 */
export async function importPglite(dataDir: string, log: (m: string) => void = () => {}): Promise<ImportResult> {
  const paths = embeddedPaths(dataDir)
  const keptAt = join(paths.root, 'pglite')
  if (existsSync(paths.pgliteMarker)) {
    mkdirSync(keptAt, { recursive: true })
    for (const entry of readdirSync(paths.root)) {
      if (!OWN_ENTRIES.has(entry)) renameSync(join(paths.root, entry), join(keptAt, entry))
    }
  }
  if (!existsSync(join(keptAt, 'PG_VERSION'))) throw new Error(`${paths.root} holds no PGlite database to migrate`)
  if (existsSync(join(paths.cluster, 'PG_VERSION'))) {
    throw new Error(`${paths.cluster} already holds the embedded PostgreSQL; move it away to import again`)
  }

  // PGlite is needed by this one command only.
  const { PGlite } = await import('@electric-sql/pglite')
  const source = (await PGlite.create(keptAt)) as unknown as PGliteLike
  const server = await openEmbeddedServer(dataDir, { log, allowPgliteBackup: true })
  const target = new pg.Client({ connectionString: server.url })
  try {
    const applied = (
      await source.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY run_on, id')
    ).rows.map((r) => r.name)
    // Migrations added since (0021, 0044, 0045, 0130 and on) may sort among those PGlite applied: the new
    // cluster gets exactly the ones applied, by name, and the others after the copy.
    const shipped = new Set(migrationNames())
    if (applied.some((name) => !shipped.has(name))) {
      throw new Error('the PGlite database has migrations this version does not ship; use the version that made it')
    }
    await migrate(server.url, log, applied)
    await target.connect()
    const result = await copyRows(source, target, log)
    await copySequences(source, target)
    await migrate(server.url, log)
    return { ...result, keptAt }
  } finally {
    await target.end().catch(() => {})
    await source.close()
    await server.stop()
  }
}

async function copyRows(source: PGliteLike, target: pg.Client, log: (m: string) => void) {
  const tables = (
    await source.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
       ORDER BY table_name`,
    )
  ).rows.map((r) => r.table_name)
  let rows = 0
  await target.query('BEGIN')
  try {
    // Foreign keys and triggers (outbox notifications) are the source's business: its rows are already consistent.
    await target.query('SET LOCAL session_replication_role = replica')
    for (const table of tables) {
      const columns = (
        await source.query<{ column_name: string }>(
          `SELECT column_name FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
          [table],
        )
      ).rows.map((r) => target.escapeIdentifier(r.column_name))
      const name = target.escapeIdentifier(table)
      const data = (await source.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${name} t`)).rows
      for (let i = 0; i < data.length; i += BATCH) {
        const batch = `[${data
          .slice(i, i + BATCH)
          .map((r) => r.row)
          .join(',')}]`
        await target.query(
          `INSERT INTO ${name} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE
           SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::${name}, $1::json)`,
          [batch],
        )
      }
      rows += data.length
      if (data.length > 0) log(`copied ${data.length} rows of ${table}`)
    }
    await target.query('COMMIT')
  } catch (error) {
    await target.query('ROLLBACK').catch(() => {})
    throw error
  }
  return { tables: tables.length, rows }
}

async function copySequences(source: PGliteLike, target: pg.Client): Promise<void> {
  const sequences = await source.query<{ name: string; last_value: string | null }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text
     FROM pg_sequences WHERE schemaname = 'public'`,
  )
  for (const s of sequences.rows) {
    if (s.last_value !== null) await target.query('SELECT setval($1::regclass, $2::bigint)', [s.name, s.last_value])
  }
}
