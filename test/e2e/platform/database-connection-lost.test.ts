import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/**
 * A connection that dies while the app holds it (the server restarting, a failover, an operator's
 * pg_terminate_backend) fails the work on it; it must not end the process, which pg's unhandled 'error' event on a
 * checked-out client did.
 */
describe('a connection lost while it is checked out', () => {
  let app: TestApp
  let merchant: Merchant
  let owner: pg.Client

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    owner = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await owner.connect()
  })
  after(async () => {
    await owner?.end()
    await app.close()
  })

  const terminate = (pid: number) => owner.query('SELECT pg_terminate_backend($1)', [pid])

  for (const kind of ['transaction', 'read', 'unscoped'] as const) {
    it(`fails the ${kind} that held it, and the pool serves the next one`, async () => {
      const { database } = app.runtime
      const work = async (q: { query: pg.Client['query'] }) => {
        const { rows } = await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
        await terminate(rows[0].pid)
        // Between statements: pg reports the loss as an 'error' event on the client, not on a query.
        await sleep(100)
        return q.query('SELECT 1')
      }
      const running =
        kind === 'transaction'
          ? database.transaction(merchant.orgId, work as never)
          : kind === 'read'
            ? database.read(merchant.orgId, work as never)
            : database.unscoped(work as never)
      await assert.rejects(running)
      const next = await database.transaction(merchant.orgId, (q) => q.query<{ one: number }>('SELECT 1 AS one'))
      assert.equal(next.rows[0].one, 1)
    })
  }
})
