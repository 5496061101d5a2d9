import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

describe('order numbers', () => {
  let app: TestApp
  let shop: Shop

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
  })
  after(() => app.close())

  const sell = (productId: string) =>
    shop.api.post('/api/v1/orders', { location_id: shop.locationId, lines: [{ product_id: productId, quantity: 1 }] })

  it('numbers an org’s orders from 1, each org on its own, and finds an order by its number', async () => {
    const product = await shop.product(4.5, { stock: 10 })
    const first = await sell(product)
    assert.equal(first.body.data.number, 1)
    const second = await sell(product)
    assert.equal(second.body.data.number, 2)
    const other = await openShop(app)
    assert.equal(
      (
        await other.api.post('/api/v1/orders', {
          location_id: other.locationId,
          lines: [{ product_id: await other.product(1, { stock: 1 }), quantity: 1 }],
        })
      ).body.data.number,
      1,
    )

    const found = await shop.api.get('/api/v1/orders?number=2')
    assert.deepEqual(
      found.body.data.map((o: { id: string }) => o.id),
      [second.body.data.id],
    )
    assert.deepEqual((await other.api.get('/api/v1/orders?number=2')).body.data, [])
    const events = await shop.api.get('/api/v1/events?type=order.created')
    assert.equal(events.status, 200)
    const created = events.body.data.find((e: { data: { id: string } }) => e.data.id === second.body.data.id)
    assert.equal(created?.data.number, 2)
  })

  it('lists orders newest first, paging on in that order, and by the register they were rung up on', async () => {
    const product = await shop.product(1, { stock: 10 })
    const register = await shop.api.post('/api/v1/registers', { name: 'Back till', location_id: shop.locationId })
    assert.equal(register.status, 201, JSON.stringify(register.body))
    const shift = await shop.api.post(`/api/v1/registers/${register.body.data.id}/shifts/open`, { opening_float: 0 })
    assert.equal(shift.status, 201, JSON.stringify(shift.body))
    const atTill = await shop.api.post('/api/v1/orders', {
      location_id: shop.locationId,
      shift_id: shift.body.data.id,
      lines: [{ product_id: product, quantity: 1 }],
    })
    assert.equal(atTill.status, 201, JSON.stringify(atTill.body))
    const byRegister = await shop.api.get(`/api/v1/orders?register_id=${register.body.data.id}`)
    assert.deepEqual(
      byRegister.body.data.map((o: { id: string }) => o.id),
      [atTill.body.data.id],
    )

    const numbers: number[] = []
    let cursor: string | null = null
    do {
      const page: { body: { data: { number: number }[]; pagination: { nextCursor: string | null } } } =
        await shop.api.get(`/api/v1/orders?order=newest&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      numbers.push(...page.body.data.map((o) => o.number))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => b - a),
    )
    assert.equal(numbers[0], atTill.body.data.number)
    assert.equal(numbers.at(-1), 1)
    assert.equal((await shop.api.get('/api/v1/orders?order=sideways')).status, 400)
  })

  it('gives 50 sales at once 50 distinct numbers, the gaps only where a sale rolled back', async () => {
    const product = await shop.product(2, { stock: 45 })
    const answers = await Promise.all(Array.from({ length: 50 }, () => sell(product)))
    const made = answers.filter((a) => a.status === 201).map((a) => a.body.data.number as number)
    const refused = answers.filter((a) => a.status !== 201)
    assert.equal(made.length, 45)
    assert.ok(refused.every((a) => a.body.code === 'INSUFFICIENT_STOCK'))
    assert.equal(new Set(made).size, made.length)
    // Every number was taken once; the five refused sales rolled back after taking theirs.
    const span = Math.max(...made) - Math.min(...made) + 1
    assert.ok(span <= 50, `numbers span ${span}`)
  })
})
