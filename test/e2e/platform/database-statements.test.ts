import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { unavailableError } from '../../../src/platform/errors/unavailable.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * Database.statement: a parameterised statement outside any org, as revocations and maintenance send them, beside
 * org transactions on the same pool: neither may disturb the other's connection state (role, org scope).
 */
describe('statements outside any org', () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('run beside org transactions on every pooled connection without disturbing either', async () => {
    const { database } = app.runtime
    const rounds = 150
    const prefix = `stmt-${Date.now()}-`
    const statements = async (worker: number) => {
      for (let i = 0; i < rounds; i++) {
        await database.statement(
          `INSERT INTO revoked_sessions (session_id, expires_at) VALUES ($1, now() + interval '1 minute')
           ON CONFLICT (session_id) DO NOTHING`,
          [`${prefix}${worker}-${i}`],
        )
      }
    }
    const transactions = async (worker: number) => {
      for (let i = 0; i < rounds; i++) {
        const sum = await database.transaction(merchant.orgId, async (q) => {
          const { rows } = await q.query<{ sum: number }>('SELECT $1::int + $2::int AS sum', [worker, i])
          return rows[0].sum
        })
        assert.equal(sum, worker + i)
      }
    }
    await Promise.all([statements(1), statements(2), transactions(3), transactions(4)])
    const { rows } = await database.statement<{ n: number }>(
      'SELECT count(*)::int AS n FROM revoked_sessions WHERE session_id LIKE $1',
      [`${prefix}%`],
    )
    assert.equal(rows[0].n, 2 * rounds)
  })
})

/** DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS on every session of the app's pool. */
describe('database timeouts', () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    app = await startTestApp({
      DATABASE_STATEMENT_TIMEOUT_MS: '300',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '500',
    })
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  it('cancels a statement that runs past the limit, and the API answers it as a 503 to retry', async () => {
    // Without the limits a stuck statement held its connection (and its locks) for as long as it ran.
    const { database } = app.runtime
    await assert.rejects(
      database.transaction(merchant.orgId, (q) => q.query('SELECT pg_sleep(2)')),
      (error: { code?: string }) => {
        assert.equal(error.code, '57014')
        assert.equal(unavailableError(error)?.status, 503)
        return true
      },
    )
    // The pool goes on serving.
    const ok = await database.transaction(merchant.orgId, (q) => q.query<{ one: number }>('SELECT 1 AS one'))
    assert.equal(ok.rows[0].one, 1)
  })

  it('ends a session left idle inside a transaction; a transaction that lifts the limit (the reports rebuild) runs on', async () => {
    const { database } = app.runtime
    await assert.rejects(
      database.transaction(merchant.orgId, async (q) => {
        await q.query('SELECT 1')
        // Idle in the transaction for longer than its limit: the server ends the session.
        await new Promise((resolve) => setTimeout(resolve, 1_500))
        await q.query('SELECT 1')
      }),
    )
    // What the rebuild does first (SET LOCAL statement_timeout = 0), for this transaction only.
    const slept = await database.transaction(merchant.orgId, async (q) => {
      await q.query('SET LOCAL statement_timeout = 0')
      await q.query('SELECT pg_sleep(0.6)')
      return true
    })
    assert.equal(slept, true)
    await app.services.reports.rebuild(systemContext(database, merchant.orgId, ['reports:read']))
    const ok = await database.transaction(merchant.orgId, (q) => q.query<{ one: number }>('SELECT 1 AS one'))
    assert.equal(ok.rows[0].one, 1)
  })
})
