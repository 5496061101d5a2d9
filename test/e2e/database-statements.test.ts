import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../support/harness.ts'

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
