import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ulid } from 'ulidx'
import { pendingCardAuthorizations } from '../../../src/modules/payments/index.ts'
import { finishStalled } from '../../../src/platform/queue/stalled-work.ts'
import { clientFor, loginAs, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

describe('sales a till made offline (POST /sync/orders)', () => {
  let app: TestApp
  let shop: Shop
  let registerId: string

  /** A paired till of the shop's location, with its own sync token. */
  async function till() {
    const code = (await shop.api.post(`/api/v1/registers/${registerId}/pairing`, {})).body.data.code
    const paired = (await clientFor(app.api).post('/api/v1/devices/pair', { code })).body.data
    const token = (await clientFor(app.api).post('/api/v1/devices/token', { device_token: paired.device_token })).body
      .data.access_token
    return clientFor(app.api, token)
  }

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    registerId = (await shop.api.post('/api/v1/registers', { location_id: shop.locationId, name: 'Front' })).body.data
      .id
  })
  after(() => app.close())

  /** A cash sale of `quantity` × `price` (no tax), paid in full, sold `minutesAgo` minutes ago. */
  const sale = (
    productId: string,
    price: number,
    o: { quantity?: number; minutesAgo?: number; extra?: object } = {},
  ) => {
    const quantity = o.quantity ?? 1
    const total = Math.round(price * quantity * 100) / 100
    return {
      client_sale_id: ulid(),
      sold_at: new Date(Date.now() - (o.minutesAgo ?? 60) * 60_000).toISOString(),
      lines: [
        {
          product_id: productId,
          quantity,
          unit_price: price,
          tax_rate: 0,
          line_subtotal: total,
          line_discount: 0,
          line_tax: 0,
          line_total: total,
        },
      ],
      subtotal: total,
      discount_total: 0,
      tax_total: 0,
      total,
      payments: [{ method: 'cash', amount: total }],
      ...o.extra,
    }
  }

  it('answers every copy of a sale sent twice in one batch from the copy that recorded it', async () => {
    const device = await till()
    const tea = await shop.product(3, { stock: 10, name: 'Tea' })
    const good = sale(tea, 3)
    const bad = { ...good, total: 4 }
    const res = await device.post('/api/v1/sync/orders', { sales: [bad, good, bad, good] })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const results = res.body.data as { result: string; order_id: string | null }[]
    assert.deepEqual(
      results.map((r) => r.result),
      ['refused', 'recorded', 'already_recorded', 'already_recorded'],
    )
    assert.equal(new Set(results.slice(1).map((r) => r.order_id)).size, 1)
    assert.equal(await shop.level(tea), 9)
  })

  it('records a day of 500 sales once, however often and however concurrently the batch is sent', async () => {
    const device = await till()
    const latte = await shop.product(4.5, { stock: 1000, name: 'Latte' })
    const sales = Array.from({ length: 500 }, (_, i) => sale(latte, 4.5, { minutesAgo: 600 - i }))
    const [first, second] = await Promise.all([
      device.post('/api/v1/sync/orders', { sales }),
      device.post('/api/v1/sync/orders', { sales }),
    ])
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 500))
    assert.equal(second.status, 200)
    // A replay after a crash: every sale is found recorded.
    const replay = await device.post('/api/v1/sync/orders', { sales })
    assert.ok(replay.body.data.every((r: { result: string }) => r.result === 'already_recorded'))
    const results = [...first.body.data, ...second.body.data]
    assert.equal(results.filter((r: { result: string }) => r.result === 'recorded').length, 500)
    assert.equal(results.filter((r: { result: string }) => r.result === 'already_recorded').length, 500)
    const orderIds = new Set(replay.body.data.map((r: { order_id: string }) => r.order_id))
    assert.equal(orderIds.size, 500)
    assert.equal(await shop.level(latte), 500)
    assert.equal(await shop.ledgerSum(latte), 500)
    const one = (await shop.api.get(`/api/v1/orders/${replay.body.data[0].order_id}`)).body.data
    assert.deepEqual(
      [one.status, one.client_sale_id, one.sold_at, one.amount_captured, one.payments.length],
      ['completed', sales[0].client_sale_id, sales[0].sold_at, 4.5, 1],
    )
    assert.equal(one.completed_at, sales[0].sold_at)
  })

  it('lets two tills sell the last unit: both recorded, stock at -1, one conflict to resolve', async () => {
    const [a, b] = [await till(), await till()]
    const cake = await shop.product(6, { stock: 1, name: 'Last cake' })
    const [one, two] = await Promise.all([
      a.post('/api/v1/sync/orders', { sales: [sale(cake, 6)] }),
      b.post('/api/v1/sync/orders', { sales: [sale(cake, 6)] }),
    ])
    const results = [one.body.data[0], two.body.data[0]]
    assert.ok(results.every((r) => r.order_id))
    assert.deepEqual(results.map((r) => r.result).sort(), ['recorded', 'recorded_with_conflicts'])
    assert.equal(await shop.level(cake), -1)
    const conflicted = results.find((r) => r.result === 'recorded_with_conflicts')
    assert.deepEqual(
      conflicted.conflicts.map((c: { code: string }) => c.code),
      ['stock_negative'],
    )
    const listed = (await shop.api.get('/api/v1/sync/conflicts')).body.data.filter(
      (c: { order_id: string }) => c.order_id === conflicted.order_id,
    )
    assert.equal(listed.length, 1)
    const resolved = await shop.api.post(`/api/v1/sync/conflicts/${listed[0].id}/resolve`, {
      resolution: 'counted: one cake was still in the back',
    })
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body))
    assert.equal(
      (await shop.api.post(`/api/v1/sync/conflicts/${listed[0].id}/resolve`, { resolution: 'x' })).status,
      404,
    )
    const events = await shop.api.get('/api/v1/events?type=inventory.negative')
    assert.ok(events.body.data.some((e: { data: { product_id: string } }) => e.data.product_id === cake))
  })

  it('refuses a sale whose figures do not add up, alone, and records the rest of its batch', async () => {
    const device = await till()
    const tea = await shop.product(3, { stock: 10, name: 'Tea' })
    const wrong = sale(tea, 3, { extra: { total: 2.5 } })
    const right = sale(tea, 3)
    const res = await device.post('/api/v1/sync/orders', { sales: [wrong, right] })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((r: { result: string }) => r.result),
      ['refused', 'recorded'],
    )
    assert.deepEqual(res.body.data[0].errors[0].field, 'sales.0.total')
    assert.equal(res.body.data[0].errors[0].code, 'does_not_add_up')
    const card = sale(tea, 3, { extra: { payments: [{ method: 'card', amount: 3 }] } })
    const refused = (await device.post('/api/v1/sync/orders', { sales: [card] })).body.data[0]
    assert.equal(refused.result, 'refused')
    assert.deepEqual(
      [refused.errors[0].field, refused.errors[0].code],
      ['sales.0.payments.0.payment_method_token', 'required'],
    )
    assert.equal(await shop.level(tea), 9)
  })

  it('counts cash of a shift closed since as a late sale, and the sale on the day it was sold', async () => {
    const device = await till()
    const bun = await shop.product(2.5, { stock: 10, name: 'Bun' })
    const shift = (await shop.api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 100 })).body.data
    assert.ok(shift?.id, 'a shift opened')
    const closed = await shop.api.post(`/api/v1/shifts/${shift.id}/close`, { counted_amount: 100 })
    assert.equal(closed.status, 200, JSON.stringify(closed.body))
    const late = sale(bun, 2.5, { minutesAgo: 30, extra: { shift_id: shift.id, sold_by: shop.merchant.userId } })
    const res = (await device.post('/api/v1/sync/orders', { sales: [late] })).body.data[0]
    assert.equal(res.result, 'recorded', JSON.stringify(res))
    const after = (await shop.api.get(`/api/v1/shifts/${shift.id}`)).body.data
    assert.deepEqual([after.late_cash_sales, after.cash_sales, after.expected_amount], [2.5, 0, 100])
    const order = (await shop.api.get(`/api/v1/orders/${res.order_id}`)).body.data
    assert.deepEqual([order.sold_by, order.shift_id], [shop.merchant.userId, shift.id])
    const audit = await shop.api.get('/api/v1/audit-log?action=order.synced')
    const entry = audit.body.data.find((e: { record_id: string }) => e.record_id === res.order_id)
    assert.ok(entry, 'the synced sale is audited')
    assert.match(entry.actor.client_id, /^dev_/)

    // A sale sold two days ago counts on that day in the reports, beside nothing else of this shop.
    const twoDaysAgo = sale(bun, 2.5, { minutesAgo: 2 * 24 * 60 })
    await device.post('/api/v1/sync/orders', { sales: [twoDaysAgo] })
    const day = twoDaysAgo.sold_at.slice(0, 10)
    const report = (await shop.api.get(`/api/v1/reports/sales?group_by=day&from=${day}&to=${day}`)).body.data
    assert.deepEqual(
      report.rows.map((r: { period: string; orders: number; total: number }) => [r.period, r.orders, r.total]),
      [[day, 1, 2.5]],
    )
  })

  it('records a price the catalog no longer asks, and staff, shifts and customers it does not know, as conflicts', async () => {
    const device = await till()
    const scone = await shop.product(3, { stock: 10, name: 'Scone' })
    // A modifier that takes off the price ("no cream") is recorded as the till priced it.
    const plain = sale(scone, 2.5, {
      extra: {
        lines: [
          {
            product_id: scone,
            quantity: 1,
            modifiers: [{ id: 'opt_no_cream', name: 'No cream', price_adjustment: -0.5 }],
            unit_price: 2.5,
            tax_rate: 0,
            line_subtotal: 2.5,
            line_discount: 0,
            line_tax: 0,
            line_total: 2.5,
          },
        ],
        subtotal: 2.5,
        total: 2.5,
        payments: [{ method: 'cash', amount: 2.5 }],
      },
    })
    const minus = (await device.post('/api/v1/sync/orders', { sales: [plain] })).body.data[0]
    assert.notEqual(minus.result, 'refused', JSON.stringify(minus))
    const odd = sale(scone, 2.8, {
      extra: { sold_by: 'usr_nobody', shift_id: 'shf_nobody', customer_id: 'cus_nobody' },
    })
    const res = (await device.post('/api/v1/sync/orders', { sales: [odd] })).body.data[0]
    assert.equal(res.result, 'recorded_with_conflicts')
    assert.deepEqual(res.conflicts.map((c: { code: string }) => c.code).sort(), [
      'price_differs',
      'unknown_customer',
      'unknown_shift',
      'unknown_staff',
    ])
    const order = (await shop.api.get(`/api/v1/orders/${res.order_id}`)).body.data
    assert.deepEqual([order.total, order.sold_by, order.customer_id], [2.8, null, null])
  })

  it('redeems a gift card overdrawn offline up to its balance, and leaves the rest due as a conflict', async () => {
    const device = await till()
    const card = (await shop.api.post('/api/v1/gift-cards', { initial_balance: 5 })).body.data
    const cake = await shop.product(8, { stock: 10, name: 'Gift cake' })
    const overdrawn = sale(cake, 8, {
      extra: { payments: [{ method: 'gift_card', amount: 8, gift_card_code: card.code }] },
    })
    const res = (await device.post('/api/v1/sync/orders', { sales: [overdrawn] })).body.data[0]
    assert.equal(res.result, 'recorded_with_conflicts', JSON.stringify(res))
    assert.deepEqual(res.conflicts.map((c: { code: string }) => c.code).sort(), ['balance_due', 'gift_card_short'])
    const order = (await shop.api.get(`/api/v1/orders/${res.order_id}`)).body.data
    assert.deepEqual([order.status, order.amount_captured, order.balance_due], ['open', 5, 3])
    assert.deepEqual(
      order.payments.map((p: { method: string; amount: number }) => [p.method, p.amount]),
      [['gift_card', 5]],
    )
    assert.equal((await shop.api.get(`/api/v1/gift-cards/${card.id}`)).body.data.balance, 0)
    // Sent again, nothing more is taken from anything.
    assert.equal(
      (await device.post('/api/v1/sync/orders', { sales: [overdrawn] })).body.data[0].result,
      'already_recorded',
    )
    assert.equal(await shop.level(cake), 9)
  })

  it('numbers offline sales from numbers the till holds, never given to another sale', async () => {
    const device = await till()
    const held = (await device.post('/api/v1/sync/numbers', { count: 5 })).body.data.numbers as number[]
    assert.equal(held.length, 5)
    assert.deepEqual((await device.post('/api/v1/sync/numbers', { count: 5 })).body.data.numbers, held)
    const tea = await shop.product(3, { stock: 10, name: 'Numbered tea' })
    const online = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      lines: [{ product_id: tea, quantity: 1 }],
    })
    assert.ok(!held.includes(online.body.data.number))
    const numbered = (
      await device.post('/api/v1/sync/orders', { sales: [sale(tea, 3, { extra: { number: held[0] } })] })
    ).body.data[0]
    assert.equal(numbered.result, 'recorded', JSON.stringify(numbered))
    assert.equal(numbered.number, held[0])
    const refilled = (await device.post('/api/v1/sync/numbers', { count: 5 })).body.data.numbers as number[]
    assert.deepEqual(refilled.slice(0, 4), held.slice(1))
    assert.equal(refilled.length, 5)
    // A number the till does not hold (another till's, or one used already) takes the org's next one.
    const reused = (await device.post('/api/v1/sync/orders', { sales: [sale(tea, 3, { extra: { number: held[0] } })] }))
      .body.data[0]
    assert.deepEqual(
      reused.conflicts.map((c: { code: string }) => c.code),
      ['number_not_held'],
    )
    assert.notEqual(reused.number, held[0])
  })

  it('authorizes a card taken offline after sync, and declines one the processor refuses or that is too old', async () => {
    const device = await till()
    const pie = await shop.product(7, { stock: 10, name: 'Pie' })
    const card = (token: string, minutesAgo: number) =>
      sale(pie, 7, { minutesAgo, extra: { payments: [{ method: 'card', amount: 7, payment_method_token: token }] } })
    const approved = card('pm_card_visa', 60)
    const declined = card('pm_card_declined', 60)
    const stale = card('pm_card_visa', 25 * 60)
    const res = (await device.post('/api/v1/sync/orders', { sales: [approved, declined, stale] })).body.data
    assert.deepEqual(
      res.map((r: { result: string }) => r.result),
      ['recorded', 'recorded', 'recorded'],
      JSON.stringify(res),
    )
    const before = (await shop.api.get(`/api/v1/orders/${res[0].order_id}`)).body.data
    assert.deepEqual([before.status, before.balance_due, before.payments[0].status], ['open', 7, 'pending'])

    // The worker's pass, as `opentill worker` runs it every few seconds.
    const work = pendingCardAuthorizations(
      app.runtime.database,
      app.services.payments,
      (ctx, orderId, why) => app.services.offlineSales.cardDeclined(ctx, orderId, why),
      24 * 3_600_000,
      app.api.log,
    )
    await finishStalled(app.runtime.database, work, app.api.log, 0)

    const paid = (await shop.api.get(`/api/v1/orders/${res[0].order_id}`)).body.data
    assert.deepEqual([paid.status, paid.amount_captured, paid.payments[0].status], ['completed', 7, 'captured'])
    assert.equal(paid.completed_at, approved.sold_at)
    for (const [i, why] of [
      [1, 'declined'],
      [2, 'more than 24 hours'],
    ] as const) {
      const order = (await shop.api.get(`/api/v1/orders/${res[i].order_id}`)).body.data
      assert.deepEqual([order.status, order.balance_due, order.payments[0].status], ['open', 7, 'failed'])
      const conflicts = (await shop.api.get('/api/v1/sync/conflicts')).body.data.filter(
        (c: { order_id: string }) => c.order_id === order.id,
      )
      assert.deepEqual(
        conflicts.map((c: { code: string }) => c.code),
        ['card_declined'],
      )
      assert.match(conflicts[0].message, new RegExp(why))
    }
    // Nothing is left to authorize, and nothing is authorized twice.
    assert.equal(await finishStalled(app.runtime.database, work, app.api.log, 0), 0)
  })

  it('counts a voucher used offline once, and a second use of a single-use voucher as a conflict', async () => {
    const [a, b] = [await till(), await till()]
    const campaign = (
      await shop.api.post('/api/v1/campaigns', {
        name: 'Two off',
        status: 'scheduled',
        requires_voucher: true,
        rules: [{ type: 'fixed_amount', amount: 2 }],
      })
    ).body.data
    assert.ok(campaign?.id, 'a campaign')
    await shop.api.post(`/api/v1/campaigns/${campaign.id}/vouchers`, { code: 'ONCE-ONLY' })
    const tart = await shop.product(10, { stock: 10, name: 'Tart' })
    const withVoucher = () =>
      sale(tart, 10, {
        extra: {
          lines: [
            {
              product_id: tart,
              quantity: 1,
              unit_price: 10,
              tax_rate: 0,
              line_subtotal: 10,
              line_discount: 2,
              line_tax: 0,
              line_total: 8,
            },
          ],
          discounts: [
            { type: 'campaign', reason: 'Two off', amount: 2, campaign_id: campaign.id, voucher_code: 'once-only' },
          ],
          subtotal: 10,
          discount_total: 2,
          total: 8,
          payments: [{ method: 'cash', amount: 8 }],
        },
      })
    const first = (await a.post('/api/v1/sync/orders', { sales: [withVoucher()] })).body.data[0]
    const second = (await b.post('/api/v1/sync/orders', { sales: [withVoucher()] })).body.data[0]
    assert.equal(first.result, 'recorded', JSON.stringify(first))
    assert.equal(second.result, 'recorded_with_conflicts', JSON.stringify(second))
    assert.deepEqual(
      second.conflicts.map((c: { code: string }) => c.code),
      ['voucher_used_up'],
    )
    const stats = (await shop.api.get(`/api/v1/campaigns/${campaign.id}/stats`)).body.data
    assert.equal(stats.redemptions, 2)
    const order = (await shop.api.get(`/api/v1/orders/${second.order_id}`)).body.data
    assert.deepEqual([order.total, order.discount_total, order.discounts[0].voucher_code], [8, 2, 'once-only'])
  })

  it('is for a paired till’s own token: staff and apps are refused', async () => {
    const staff = await loginAs(app, shop.merchant.orgId, 'staff')
    const tea = await shop.product(3, { stock: 1 })
    assert.equal((await staff.api.post('/api/v1/sync/orders', { sales: [sale(tea, 3)] })).status, 403)
    assert.equal((await shop.api.post('/api/v1/sync/orders', { sales: [sale(tea, 3)] })).status, 403)
    assert.equal(await shop.level(tea), 1)
  })
})
