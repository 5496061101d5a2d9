import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { loadConfig } from '../../src/config.ts'
import { openDatabaseServer } from '../../src/platform/runtime.ts'

const run = promisify(execFile)

/**
 * The migrations of the PGlite era: those up to 0065, the last before the move to the embedded PostgreSQL, less the
 * three added later with numbers among them.
 */
const pgliteEra = readdirSync('db/migrations')
  .filter((f) => f.endsWith('.sql') && f <= '0065_inventory_sale_guard.sql')
  .filter((f) => !['0021_partner_plans.sql', '0044_layby_cancelling.sql', '0045_refunds_stalled.sql'].includes(f))
  .sort()

/** A DATA_DIR as OpenTill left it before 2026-11: PGlite's files at its top, migrated, with an org trading in it. */
async function makePgliteDataDir(dir: string): Promise<void> {
  const db = await PGlite.create(dir)
  const migrations = pgliteEra
  await db.exec(
    'CREATE TABLE schema_migrations (id serial PRIMARY KEY, name varchar(255) NOT NULL, run_on timestamp NOT NULL)',
  )
  for (const file of migrations) {
    await db.exec(readFileSync(join('db/migrations', file), 'utf8'))
    await db.query('INSERT INTO schema_migrations (name, run_on) VALUES ($1, now())', [file.replace(/\.sql$/, '')])
  }
  await db.exec(`
    INSERT INTO orgs (id, name, currency) VALUES ('org_pglite', 'Old Corner Shop', 'NZD');
    INSERT INTO products (id, org_id, name, sku, barcodes, base_price)
      VALUES ('prod_a', 'org_pglite', 'Flat White', 'FW-1', ARRAY['9400000000017'], 450),
             ('prod_b', 'org_pglite', 'Café "Crème"', 'CC-1', '{}', 9007199254740993);
  `)
  await db.close()
}

describe('moving a PGlite-era data directory onto the embedded PostgreSQL', () => {
  let dataDir: string
  const env = () => ({ ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'silent' })

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'opentill-pglite-'))
    await makePgliteDataDir(dataDir)
  })
  after(() => rmSync(dataDir, { recursive: true, force: true }))

  it('refuses to start on it with the one command that moves it', async () => {
    await assert.rejects(
      run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], { env: env() }),
      (error: { code: number; stderr: string }) => {
        assert.equal(error.code, 1)
        assert.match(error.stderr, /holds a PGlite database[\s\S]*npm run cli -- migrate-embedded/)
        return true
      },
    )
  })

  it('copies every row exactly, keeps the PGlite files aside, and then serves from the new cluster', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate-embedded'], {
      env: env(),
    })
    const result = JSON.parse(stdout)
    assert.ok(result.rows >= 3)
    assert.equal(result.keptAt, join(dataDir, 'pglite'))
    assert.ok(existsSync(join(dataDir, 'pglite', 'PG_VERSION')))
    assert.equal(existsSync(join(dataDir, 'PG_VERSION')), false)

    const opened = await openDatabaseServer(loadConfig(env()))
    const client = new pg.Client({ connectionString: opened.url })
    try {
      await client.connect()
      const products = await client.query(
        "SELECT id, name, barcodes, base_price::text AS price FROM products WHERE org_id = 'org_pglite' ORDER BY id",
      )
      assert.deepEqual(products.rows, [
        { id: 'prod_a', name: 'Flat White', barcodes: ['9400000000017'], price: '450' },
        { id: 'prod_b', name: 'Café "Crème"', barcodes: [], price: '9007199254740993' },
      ])
      const org = await client.query("SELECT org_id, currency FROM orgs WHERE id = 'org_pglite'")
      assert.deepEqual(org.rows, [{ org_id: 'org_pglite', currency: 'NZD' }])
      const pending = await client.query('SELECT count(*)::int AS n FROM schema_migrations')
      assert.equal(pending.rows[0].n, readdirSync('db/migrations').filter((f) => f.endsWith('.sql')).length)
    } finally {
      await client.end()
      await opened.close()
    }
  })
})
