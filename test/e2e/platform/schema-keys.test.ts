import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createMerchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * Citus-ready schema (docs/operations.md "Scaling past one PostgreSQL"): every table that holds an org's rows can be
 * distributed by org_id only if each of its primary keys and unique constraints includes org_id, and each foreign
 * key between such tables matches org_id with org_id. This reads the migrated catalog, so a new table that forgets
 * it fails here.
 */

/**
 * The deliberate exception: a live till pairing code, six digits typed on a till that knows no org yet, must name
 * one device of one org. (The sign-in identity, a person's e-mail, lives in `people`, which has no org.)
 */
const PLATFORM_WIDE_UNIQUE = new Set(['devices.devices_pairing_code'])

describe('the schema keys every org table by org_id', () => {
  let app: TestApp
  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  const orgTables = `
    SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped)`

  it('includes org_id in every primary key and unique index of an org table', async () => {
    const { rows } = await app.runtime.database.statement<{ name: string; definition: string }>(
      `WITH org_tables AS (${orgTables})
       SELECT t.relname || '.' || i.relname AS name, pg_get_indexdef(i.oid) AS definition
       FROM org_tables t JOIN pg_index x ON x.indrelid = t.oid JOIN pg_class i ON i.oid = x.indexrelid
       WHERE x.indisunique
         -- orgs is distributed by its own id, of which org_id is a generated copy.
         AND NOT EXISTS (SELECT 1 FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k
                         WHERE a.attname = 'org_id' OR (t.relname = 'orgs' AND a.attname = 'id'))
       ORDER BY 1`,
    )
    const offending = rows.filter((r) => !PLATFORM_WIDE_UNIQUE.has(r.name))
    assert.deepEqual(offending, [], 'each unique key of an org table must include org_id')
    assert.ok(rows.length === PLATFORM_WIDE_UNIQUE.size, 'the platform-wide exception still exists as documented')
  })

  it('matches org_id with org_id in every foreign key between org tables', async () => {
    const { rows } = await app.runtime.database.statement<{ name: string; definition: string }>(
      `WITH org_tables AS (${orgTables})
       SELECT t.relname || '.' || con.conname AS name, pg_get_constraintdef(con.oid) AS definition
       FROM org_tables t JOIN pg_constraint con ON con.conrelid = t.oid
       JOIN org_tables parent ON parent.oid = con.confrelid
       WHERE con.contype = 'f'
         AND NOT EXISTS (
           SELECT 1 FROM unnest(con.conkey, con.confkey) AS k(child, parent_key)
           JOIN pg_attribute ca ON ca.attrelid = con.conrelid AND ca.attnum = k.child
           JOIN pg_attribute pa ON pa.attrelid = con.confrelid AND pa.attnum = k.parent_key
           WHERE ca.attname = 'org_id'
             AND pa.attname = CASE WHEN parent.relname = 'orgs' THEN 'id' ELSE 'org_id' END)
       ORDER BY 1`,
    )
    assert.deepEqual(rows, [], 'each foreign key between org tables must pair org_id with org_id')
  })

  it('refuses a row that names a parent of another org', async () => {
    const [a, b] = [await createMerchant(app), await createMerchant(app)]
    const parent = await app.api.inject({
      method: 'POST',
      url: '/api/v1/categories',
      headers: { authorization: `Bearer ${b.token}` },
      payload: { name: 'Drinks' },
    })
    assert.equal(parent.statusCode, 201)
    const foreignParent = parent.json().data.id as string
    await assert.rejects(
      app.runtime.database.transaction(a.orgId, (q) =>
        q.query(`INSERT INTO categories (id, org_id, name, parent_id) VALUES ('cat_cross', $1, 'Tea', $2)`, [
          a.orgId,
          foreignParent,
        ]),
      ),
      (error: { code?: string; constraint?: string }) =>
        error.code === '23503' && error.constraint === 'categories_parent_id_fkey',
    )
  })
})
