import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop } from '../../support/shop.ts'

describe("a store's daily report rows", () => {
  let app: TestApp
  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  it('let a sale commit while another sale of the same store and day is still being written, and count both', async () => {
    // Every completed sale of a store's day adds to the same report rows. Their triggers fire at the commit
    // (db/migrations/0159), so a sale that has not committed yet holds none of them and the next waits for nothing;
    // fired at the insert, they held the rows until the commit and the store's sales committed one at a time.
    const shop = await openShop(app)
    const orgId = shop.merchant.orgId
    const product = await shop.product(3, { stock: 5 })
    let release!: () => void
    const released = new Promise<void>((done) => {
      release = done
    })
    let written!: () => void
    const firstWritten = new Promise<void>((done) => {
      written = done
    })
    const first = app.runtime.database.transaction(orgId, async (q) => {
      await q.query(
        `INSERT INTO orders (id, org_id, location_id, status, currency, prices_include_tax, subtotal, discount_total,
           tax_total, total, number, completed_at)
         VALUES ('ord_still_open', $1, $2, 'completed', 'USD', false, 500, 0, 0, 500, order_number_next($1), now())`,
        [orgId, shop.locationId],
      )
      written()
      await released
    })
    await firstWritten

    const second = (async () => {
      const order = await shop.api.post('/api/v1/orders', {
        location_id: shop.locationId,
        lines: [{ product_id: product, quantity: 1 }],
      })
      assert.equal(order.status, 201, JSON.stringify(order.body))
      const paid = await shop.api.post('/api/v1/payments', { order_id: order.body.data.id, amount: 3, method: 'cash' })
      assert.equal(paid.status, 201, JSON.stringify(paid.body))
      assert.equal((await shop.api.get(`/api/v1/orders/${order.body.data.id}`)).body.data.status, 'completed')
    })()
    // Waits for a state: the second sale finished, or some transaction of this database waits for a lock.
    const watcher = new pg.Client({ connectionString: app.runtime.ownerUrl })
    await watcher.connect()
    let finished = false
    const outcome = await Promise.race([
      second.then(() => {
        finished = true
        return 'finished'
      }),
      (async () => {
        while (!finished) {
          const waiting = await watcher.query(
            "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          )
          if (waiting.rowCount) return 'waiting for a lock'
          await sleep(10)
        }
        return 'finished'
      })(),
    ])
    release()
    await Promise.all([first, second])
    await watcher.end()
    assert.equal(outcome, 'finished')

    const today = new Date().toISOString().slice(0, 10)
    const report = await shop.api.get(`/api/v1/reports/sales?from=${today}&to=${today}`)
    assert.equal(report.status, 200, JSON.stringify(report.body))
    assert.equal(report.body.data.totals.orders, 2)
    assert.equal(report.body.data.totals.total, 8)
  })
})
