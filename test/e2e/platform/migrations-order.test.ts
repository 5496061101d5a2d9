import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import pg from 'pg'
import { LEGACY_OUT_OF_ORDER, migrate, migrationNames } from '../../../src/platform/db/migrate.ts'
import { scratchServerDatabase } from '../../support/harness.ts'
import type { ServerDatabase } from '../../support/server-database.ts'

/** The schema as the catalog describes it: columns, constraints, indexes, functions, policies and triggers. */
async function schemaOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const rows = async (sql: string) => (await client.query<{ line: string }>(sql)).rows.map((r) => r.line)
    return [
      ...(await rows(`SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
        || ' ' || coalesce(column_default, '') AS line FROM information_schema.columns WHERE table_schema = 'public'`)),
      ...(await rows(`SELECT 'constraint ' || conrelid::regclass || ' ' || pg_get_constraintdef(oid) AS line
        FROM pg_constraint WHERE connamespace = 'public'::regnamespace`)),
      ...(await rows(`SELECT 'index ' || indexdef AS line FROM pg_indexes WHERE schemaname = 'public'`)),
      ...(await rows(`SELECT 'function ' || proname || ' ' || md5(prosrc) AS line FROM pg_proc
        WHERE pronamespace = 'public'::regnamespace`)),
      ...(await rows(`SELECT 'policy ' || tablename || ' ' || policyname || ' ' || coalesce(qual, '') AS line
        FROM pg_policies WHERE schemaname = 'public'`)),
      ...(await rows(`SELECT 'trigger ' || tgrelid::regclass || ' ' || tgname AS line FROM pg_trigger
        WHERE NOT tgisinternal`)),
    ].sort()
  } finally {
    await client.end()
  }
}

/** Migration numbers only grow (docs/architecture.md "Migrations"), but for three that shipped late. */
describe('the order of migrations', () => {
  const made: ServerDatabase[] = []
  const database = async () => {
    const db = await scratchServerDatabase({ empty: true })
    assert.ok(db)
    made.push(db)
    return db
  }

  after(async () => {
    for (const db of made) await db.drop()
  })

  it('gives the same schema when 0021, 0044 and 0045 run after 0127 and 0128, as databases of that time ran them', async () => {
    const fresh = await database()
    await migrate(fresh.url)
    const upgraded = await database()
    const names = migrationNames()
    const late = names.filter((n) => LEGACY_OUT_OF_ORDER.includes(n))
    const cut = names.indexOf('0128_invitations_by_email') + 1
    const historical = [...names.slice(0, cut).filter((n) => !late.includes(n)), ...late, ...names.slice(cut)]
    for (const name of historical) await migrate(upgraded.url, () => {}, [name])
    assert.deepEqual(await schemaOf(upgraded.url), await schemaOf(fresh.url))
  })

  it('carries refunds left pending and lay-bys left cancelling into flow runs on an upgraded database', async () => {
    const db = await database()
    await migrate(
      db.url,
      () => {},
      migrationNames().filter((name) => name < '0158'),
    )
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    try {
      // Rows as a database of that time held them, without the orders, customers and orgs they point at.
      await client.query('SET session_replication_role = replica')
      await client.query(`INSERT INTO refunds (id, org_id, order_id, amount, reason, restock, status, created_at) VALUES
        ('ref_left', 'org_a', 'ord_a', 500, '', false, 'pending', now() - interval '1 hour'),
        ('ref_done', 'org_a', 'ord_a', 200, '', false, 'succeeded', now())`)
      await client.query(`INSERT INTO laybys (id, org_id, customer_id, location_id, status, currency, lines, subtotal,
          discount_total, tax_total, total, cancel_reason, cancel_shift_id) VALUES
        ('lay_left', 'org_b', 'cus_b', 'loc_b', 'cancelling', 'USD', '[]', 0, 0, 0, 0, 'moved away', 'shf_b'),
        ('lay_open', 'org_b', 'cus_b', 'loc_b', 'open', 'USD', '[]', 0, 0, 0, 0, NULL, NULL)`)
      await migrate(db.url)
      const runs = await client.query(
        `SELECT org_id, flow, key, input, steps, created_at < now() - interval '59 minutes' AS dated FROM flow_runs
         ORDER BY flow`,
      )
      assert.deepEqual(runs.rows, [
        {
          org_id: 'org_b',
          flow: 'layby-cancellation',
          key: 'lay_left',
          input: { reason: 'moved away', shiftId: 'shf_b' },
          steps: {},
          dated: false,
        },
        { org_id: 'org_a', flow: 'refund', key: 'ref_left', input: { shiftId: null }, steps: {}, dated: true },
      ])
    } finally {
      await client.end()
    }
  })

  it('refuses a migration numbered below one the database has applied', async () => {
    const db = await database()
    await migrate(db.url)
    // As if 0130 had been added after the newest ran: a number among the applied ones.
    const client = new pg.Client({ connectionString: db.url })
    await client.connect()
    await client.query(`DELETE FROM schema_migrations WHERE name = '0130_catalog_search'`)
    await client.end()
    const newest = migrationNames().at(-1)
    await assert.rejects(migrate(db.url), new RegExp(`migration 0130_catalog_search is numbered below ${newest}`))
  })
})
