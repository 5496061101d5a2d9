import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { APP_LOGIN } from '../../src/platform/db/app-login.ts'
import { APP_ROLE } from '../../src/platform/db/database.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../support/harness.ts'

/** Tables that belong to no org, each for a stated reason; any other table must carry org_id under RLS. */
const SYSTEM_TABLES = new Set([
  'schema_migrations', // migration bookkeeping, never reached by the app role
  'signing_keys', // the ES256 keys every instance signs with
  'revoked_sessions', // looked up by session id on every request, before any org is known
  'secrets_sealed', // one row for the deployment: whether every stored secret is sealed (read-only to the app)
  'people', // a person signs in to several orgs; the app's role reaches it only through the auth_person_* functions
])

/** Tables the app's role may only insert into and read: no row of any org can be updated or deleted. */
const APPEND_ONLY_TABLES = new Set(['audit_log'])

/**
 * supabase/storage's table-driven cross-tenant test: it walks every table of the schema, so a table added later
 * without org_id or without its policies fails here.
 */
describe('tenant isolation by row-level security', () => {
  let app: TestApp
  let a: Merchant
  let b: Merchant
  let owner: pg.Client
  let tables: { name: string; hasOrgId: boolean; rls: boolean; forced: boolean; policies: string[]; column: string }[]

  before(async () => {
    app = await startTestApp()
    a = await createMerchant(app)
    b = await createMerchant(app)
    // Give org B rows in the core tables through the API (sessions, refresh tokens, products, idempotency keys).
    const apiB = clientFor(app.api, b.token)
    await apiB.post('/api/v1/products', { name: 'B only', sku: 'B-1' }, { 'idempotency-key': 'rls-b' })
    owner = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await owner.connect()
    const result = await owner.query<{
      name: string
      has_org_id: boolean
      rls: boolean
      forced: boolean
      policies: string[]
      column: string
    }>(
      `SELECT c.relname AS name,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'org_id' AND NOT a.attisdropped) AS has_org_id,
              c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
              coalesce((SELECT array_agg(p.polname::text) FROM pg_policy p WHERE p.polrelid = c.oid), '{}') AS policies,
              (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                 AND a.attgenerated = '' ORDER BY a.attnum LIMIT 1) AS column
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
       ORDER BY c.relname`,
    )
    tables = result.rows.map((r) => ({
      name: r.name,
      hasOrgId: r.has_org_id,
      rls: r.rls,
      forced: r.forced,
      policies: r.policies,
      column: r.column,
    }))
  })
  after(async () => {
    await owner.end()
    await app.close()
  })

  it('runs the app as a role that is neither superuser nor exempt from row-level security', async () => {
    const role = await owner.query('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1', [APP_ROLE])
    assert.deepEqual(role.rows[0], { rolsuper: false, rolbypassrls: false })
    const current = await app.runtime.database.statement<{ role: string }>('SELECT current_user AS role')
    assert.equal(current.rows[0].role, APP_ROLE)
  })

  it('logs the app in as a role of its own that RESET ROLE cannot turn into the owner', async () => {
    const login = await owner.query(
      `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole,
              array(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
                    WHERE m.member = r.oid) AS member_of
       FROM pg_roles r WHERE r.rolname = $1`,
      [APP_LOGIN],
    )
    assert.deepEqual(login.rows[0], {
      rolsuper: false,
      rolbypassrls: false,
      rolcreaterole: false,
      member_of: [APP_ROLE],
    })
    // An injected RESET ROLE inside the app's own transaction returns to the session's role (the startup option),
    // never to the owner, and still shows only org A's rows.
    const seen = await app.runtime.database.transaction(a.orgId, async (q) => {
      await q.query('RESET ROLE')
      const who = await q.query<{ role: string }>('SELECT current_user AS role')
      const others = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM products WHERE org_id <> $1', [
        a.orgId,
      ])
      return { role: who.rows[0].role, others: others.rows[0].n }
    })
    assert.deepEqual(seen, { role: APP_ROLE, others: 0 })
    const session = await app.runtime.database.statement<{ role: string }>('SELECT session_user AS role')
    assert.equal(session.rows[0].role, APP_LOGIN)
    const policies = await owner.query("SELECT count(*)::int AS n FROM pg_policy WHERE polname = 'owner_maintenance'")
    assert.equal(policies.rows[0].n, 0)
  })

  it('puts org_id, row-level security and the isolation policy on every table but the system ones', () => {
    assert.ok(tables.length > 5)
    for (const table of tables) {
      if (SYSTEM_TABLES.has(table.name)) continue
      assert.ok(table.hasOrgId, `${table.name} has no org_id column (or list it in SYSTEM_TABLES with a reason)`)
      assert.ok(table.rls, `${table.name} does not enable row-level security`)
      assert.ok(!table.forced, `${table.name} forces row-level security on its owner (the SECURITY DEFINER look-ups)`)
      assert.ok(table.policies.includes('org_isolation'), `${table.name} lacks the org_isolation policy`)
    }
  })

  it('shows a query that forgot its org filter nothing of another org, in every table', async () => {
    const seenOfB: string[] = []
    for (const table of tables.filter((t) => t.hasOrgId)) {
      await owner.query('BEGIN')
      try {
        await owner.query('SET LOCAL ROLE NONE')
        const truth = await owner.query(`SELECT count(*)::int AS n FROM ${table.name} WHERE org_id = $1`, [b.orgId])
        if (truth.rows[0].n > 0) seenOfB.push(table.name)
        await owner.query(`SET LOCAL ROLE ${APP_ROLE}`)
        await owner.query("SELECT set_config('app.org_id', $1, true)", [a.orgId])
        const leaked = await owner.query(`SELECT count(*)::int AS n FROM ${table.name} WHERE org_id <> $1`, [a.orgId])
        assert.equal(leaked.rows[0].n, 0, `${table.name} shows another org's rows`)
        if (APPEND_ONLY_TABLES.has(table.name)) {
          await owner.query('SAVEPOINT append_only')
          await assert.rejects(
            owner.query(`DELETE FROM ${table.name} WHERE org_id = $1`, [b.orgId]),
            /permission denied/,
          )
          await owner.query('ROLLBACK TO SAVEPOINT append_only')
          continue
        }
        const updated = await owner.query(
          `UPDATE ${table.name} SET "${table.column}" = "${table.column}" WHERE org_id = $1`,
          [b.orgId],
        )
        assert.equal(updated.rowCount, 0, `${table.name} lets another org's rows be updated`)
        const deleted = await owner.query(`DELETE FROM ${table.name} WHERE org_id = $1`, [b.orgId])
        assert.equal(deleted.rowCount, 0, `${table.name} lets another org's rows be deleted`)
      } finally {
        await owner.query('ROLLBACK')
      }
    }
    // The walk proves something only where org B has rows: the core tables must be among them.
    for (const core of ['orgs', 'users', 'auth_sessions', 'refresh_tokens', 'products', 'idempotency_keys']) {
      assert.ok(seenOfB.includes(core), `org B has no rows in ${core}`)
    }
  })

  it('shows nothing at all when no org is set', async () => {
    for (const table of tables.filter((t) => t.hasOrgId)) {
      await owner.query('BEGIN')
      try {
        await owner.query(`SET LOCAL ROLE ${APP_ROLE}`)
        await owner.query("SELECT set_config('app.org_id', '', true)")
        const rows = await owner.query(`SELECT count(*)::int AS n FROM ${table.name}`)
        assert.equal(rows.rows[0].n, 0, `${table.name} is visible without an org`)
      } finally {
        await owner.query('ROLLBACK')
      }
    }
  })

  it('refuses to write a row into another org', async () => {
    await owner.query('BEGIN')
    try {
      await owner.query(`SET LOCAL ROLE ${APP_ROLE}`)
      await owner.query("SELECT set_config('app.org_id', $1, true)", [a.orgId])
      await assert.rejects(
        owner.query("INSERT INTO products (id, org_id, name, sku) VALUES ('prod_rls', $1, 'x', 'x')", [b.orgId]),
        /row-level security/,
      )
    } finally {
      await owner.query('ROLLBACK')
    }
  })
})
