import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import {
  clientFor,
  createMerchant,
  type JsonBody,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../support/harness.ts'

describe('inventory levels, adjustments, transfers and alerts', () => {
  let app: TestApp
  let merchant: Merchant
  let api: ReturnType<typeof clientFor>
  let shop: string
  let store2: string
  let sku = 0

  const newProduct = async () => {
    const res = await api.post('/api/v1/products', { name: `Item ${++sku}`, sku: `inv-${sku}`, base_price: 2.5 })
    assert.equal(res.status, 201)
    return res.body.data.id as string
  }
  const adjust = (body: Record<string, unknown>) => api.post('/api/v1/inventory/adjust', body)
  const onHand = async (productId: string, locationId: string) =>
    (await api.get(`/api/v1/inventory/levels?product_id=${productId}&location_id=${locationId}`)).body.data[0]?.on_hand
  const eventsOf = async (type: string) =>
    (
      await app.runtime.database.transaction(merchant.orgId, (q) =>
        q.query<{ data: JsonBody }>('SELECT data FROM events WHERE org_id = $1 AND type = $2 ORDER BY id', [
          merchant.orgId,
          type,
        ]),
      )
    ).rows.map((r) => r.data)

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    api = clientFor(app.api, merchant.token)
    shop = (await api.post('/api/v1/locations', { name: 'Shop' })).body.data.id
    store2 = (await api.post('/api/v1/locations', { name: 'Store 2' })).body.data.id
  })
  after(() => app.close())

  it('records a received adjustment as a movement with who, why, before, after and the client timestamp', async () => {
    const productId = await newProduct()
    const res = await adjust({
      product_id: productId,
      location_id: shop,
      quantity: 12,
      reason: 'received',
      note: 'PO 42',
      occurred_at: '2024-05-01T09:30:00.000Z',
    })
    assert.equal(res.status, 201)
    const m = res.body.data
    assert.match(m.id, /^imv_/)
    assert.deepEqual(
      [
        m.product_id,
        m.variant_id,
        m.location_id,
        m.quantity,
        m.reason,
        m.quantity_before,
        m.quantity_after,
        m.note,
        m.reference,
      ],
      [productId, null, shop, 12, 'received', 0, 12, 'PO 42', null],
    )
    assert.equal(m.actor.user_id, merchant.userId)
    assert.equal(m.occurred_at, '2024-05-01T09:30:00.000Z')
    assert.equal(await onHand(productId, shop), 12)
    const events = await eventsOf('inventory.adjusted')
    assert.ok(events.some((e) => e.id === m.id))
  })

  it('enforces the sign of each reason and refuses zero, with 422s naming quantity that change nothing', async () => {
    const productId = await newProduct()
    await adjust({ product_id: productId, location_id: shop, quantity: 5, reason: 'received' })
    for (const [quantity, reason] of [
      [-1, 'received'],
      [-1, 'return'],
      [1, 'damaged'],
      [2, 'theft'],
      [0, 'correction'],
      [-1, 'count'],
    ] as const) {
      const res = await adjust({ product_id: productId, location_id: shop, quantity, reason })
      assert.equal(res.status, 422, `${reason} ${quantity}`)
      assert.equal(res.body.errors[0].field, 'quantity')
    }
    const correction = await adjust({ product_id: productId, location_id: shop, quantity: -2, reason: 'correction' })
    assert.equal(correction.status, 201)
    assert.equal(await onHand(productId, shop), 3)
    const badReason = await adjust({ product_id: productId, location_id: shop, quantity: 1, reason: 'sale' })
    assert.equal(badReason.status, 422)
    assert.equal(badReason.body.errors[0].field, 'reason')
    const fractional = await adjust({ product_id: productId, location_id: shop, quantity: 1.5, reason: 'received' })
    assert.equal(fractional.status, 422)
    const unknown = await adjust({
      product_id: productId,
      location_id: shop,
      quantity: 1,
      reason: 'received',
      bin: 'A1',
    })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'bin')
    const future = await adjust({
      product_id: productId,
      location_id: shop,
      quantity: 1,
      reason: 'received',
      occurred_at: '2999-01-01T00:00:00.000Z',
    })
    assert.equal(future.status, 422)
    assert.equal(future.body.errors[0].field, 'occurred_at')
    assert.equal(await onHand(productId, shop), 3)
  })

  it('sets the level from a physical count and stores before and after', async () => {
    const productId = await newProduct()
    await adjust({ product_id: productId, location_id: shop, quantity: 7, reason: 'received' })
    const count = await adjust({ product_id: productId, location_id: shop, quantity: 3, reason: 'count' })
    assert.equal(count.status, 201)
    assert.deepEqual(
      [count.body.data.quantity, count.body.data.quantity_before, count.body.data.quantity_after],
      [-4, 7, 3],
    )
    const first = await adjust({ product_id: productId, location_id: store2, quantity: 5, reason: 'count' })
    assert.deepEqual(
      [first.body.data.quantity, first.body.data.quantity_before, first.body.data.quantity_after],
      [5, 0, 5],
    )
    const same = await adjust({ product_id: productId, location_id: store2, quantity: 5, reason: 'count' })
    assert.equal(same.status, 201)
    assert.equal(same.body.data.quantity, 0)
    assert.equal(await onHand(productId, shop), 3)
    assert.equal(await onHand(productId, store2), 5)
  })

  it('refuses to take stock below zero with a 409 unless the org allows negative stock', async () => {
    const productId = await newProduct()
    await adjust({ product_id: productId, location_id: shop, quantity: 1, reason: 'received' })
    const short = await adjust({ product_id: productId, location_id: shop, quantity: -2, reason: 'damaged' })
    assert.equal(short.status, 409)
    assert.match(short.body.detail, /insufficient stock for inv-\d+ at Shop/)
    assert.equal(short.body.errors[0].code, 'insufficient_stock')
    assert.equal(await onHand(productId, shop), 1)

    const lenient = await createMerchant(app)
    await app.runtime.database.transaction(lenient.orgId, (q) =>
      q.query('UPDATE orgs SET allow_negative_stock = true WHERE id = $1', [lenient.orgId]),
    )
    const other = clientFor(app.api, lenient.token)
    const location = (await other.post('/api/v1/locations', { name: 'Pop-up' })).body.data.id
    const product = (await other.post('/api/v1/products', { name: 'Pre-sold', sku: 'neg-1' })).body.data.id
    const oversold = await other.post('/api/v1/inventory/adjust', {
      product_id: product,
      location_id: location,
      quantity: -3,
      reason: 'theft',
    })
    assert.equal(oversold.status, 201)
    assert.equal(oversold.body.data.quantity_after, -3)
    const level = (await other.get(`/api/v1/inventory/levels?product_id=${product}`)).body.data[0]
    assert.equal(level.on_hand, -3)
    assert.equal(level.status, 'out_of_stock')
  })

  it('keeps variants apart from their product and refuses a variant of another product', async () => {
    const productId = await newProduct()
    const otherProduct = await newProduct()
    const variant = await api.post(`/api/v1/products/${productId}/variants`, { name: 'Large', sku: `inv-var-${sku}` })
    assert.equal(variant.status, 201, JSON.stringify(variant.body))
    const variantId = variant.body.data.id
    const res = await adjust({
      product_id: productId,
      variant_id: variantId,
      location_id: shop,
      quantity: 4,
      reason: 'received',
    })
    assert.equal(res.status, 201)
    assert.equal(res.body.data.variant_id, variantId)
    await adjust({ product_id: productId, location_id: shop, quantity: 1, reason: 'received' })
    const levels = (await api.get(`/api/v1/inventory/levels?product_id=${productId}`)).body.data
    assert.deepEqual(
      levels.map((l: { variant_id: string; on_hand: number }) => [l.variant_id, l.on_hand]).sort(),
      [
        [null, 1],
        [variantId, 4],
      ].sort(),
    )
    const byVariant = await api.get(`/api/v1/inventory/levels?variant_id=${variantId}`)
    assert.deepEqual(
      byVariant.body.data.map((l: { on_hand: number }) => l.on_hand),
      [4],
    )
    const short = await adjust({
      product_id: productId,
      variant_id: variantId,
      location_id: shop,
      quantity: -5,
      reason: 'damaged',
    })
    assert.equal(short.status, 409)
    assert.match(short.body.detail, /insufficient stock for inv-var-\d+ at Shop/)
    const wrongProduct = await adjust({
      product_id: otherProduct,
      variant_id: variantId,
      location_id: shop,
      quantity: 1,
      reason: 'received',
    })
    assert.equal(wrongProduct.status, 422)
    assert.equal(wrongProduct.body.errors[0].field, 'variant_id')
    const unknown = await adjust({
      product_id: productId,
      variant_id: 'var_missing',
      location_id: shop,
      quantity: 1,
      reason: 'received',
    })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'variant_id')
  })

  it('names unknown and foreign products and locations in 422s', async () => {
    const productId = await newProduct()
    const noProduct = await adjust({ product_id: 'prod_missing', location_id: shop, quantity: 1, reason: 'received' })
    assert.equal(noProduct.status, 422)
    assert.equal(noProduct.body.errors[0].field, 'product_id')
    const noLocation = await adjust({
      product_id: productId,
      location_id: 'loc_missing',
      quantity: 1,
      reason: 'received',
    })
    assert.equal(noLocation.status, 422)
    assert.equal(noLocation.body.errors[0].field, 'location_id')

    const stranger = await createMerchant(app)
    const theirs = clientFor(app.api, stranger.token)
    const foreignProduct = await theirs.post('/api/v1/inventory/adjust', {
      product_id: productId,
      location_id: shop,
      quantity: 1,
      reason: 'received',
    })
    assert.equal(foreignProduct.status, 422)
    assert.equal(foreignProduct.body.errors[0].field, 'product_id')
    assert.deepEqual((await theirs.get('/api/v1/inventory/levels')).body.data, [])
    assert.deepEqual((await theirs.get('/api/v1/inventory/movements')).body.data, [])
  })

  it('transfers stock atomically, emits inventory.transfer_completed and references the transfer in the ledger', async () => {
    const a = await newProduct()
    const b = await newProduct()
    await adjust({ product_id: a, location_id: shop, quantity: 10, reason: 'received' })
    await adjust({ product_id: b, location_id: shop, quantity: 4, reason: 'received' })
    const res = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [
        { product_id: a, quantity: 6 },
        { product_id: b, quantity: 4 },
      ],
      note: 'restock store 2',
    })
    assert.equal(res.status, 201)
    const transfer = res.body.data
    assert.match(transfer.id, /^trf_/)
    assert.equal(transfer.status, 'completed')
    assert.deepEqual(transfer.lines, [
      { product_id: a, variant_id: null, quantity: 6 },
      { product_id: b, variant_id: null, quantity: 4 },
    ])
    assert.deepEqual(
      [await onHand(a, shop), await onHand(a, store2), await onHand(b, shop), await onHand(b, store2)],
      [4, 6, 0, 4],
    )
    assert.deepEqual((await api.get(`/api/v1/inventory/transfers/${transfer.id}`)).body.data, transfer)
    const ledger = await api.get(`/api/v1/inventory/movements?reference_type=transfer&reference_id=${transfer.id}`)
    assert.deepEqual(
      ledger.body.data.map((m: { product_id: string; location_id: string; quantity: number; reason: string }) => [
        m.product_id,
        m.location_id,
        m.quantity,
        m.reason,
      ]),
      [
        [a, shop, -6, 'transfer_out'],
        [a, store2, 6, 'transfer_in'],
        [b, shop, -4, 'transfer_out'],
        [b, store2, 4, 'transfer_in'],
      ],
    )
    const events = await eventsOf('inventory.transfer_completed')
    assert.ok(events.some((e) => e.id === transfer.id))
  })

  it('refuses a transfer when any line is short (409 naming the line) or the locations are wrong (422), changing nothing', async () => {
    const a = await newProduct()
    const b = await newProduct()
    await adjust({ product_id: a, location_id: shop, quantity: 5, reason: 'received' })
    await adjust({ product_id: b, location_id: shop, quantity: 1, reason: 'received' })
    const short = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [
        { product_id: a, quantity: 5 },
        { product_id: b, quantity: 2 },
      ],
    })
    assert.equal(short.status, 409)
    assert.equal(short.body.errors[0].field, 'lines.1')
    assert.deepEqual([await onHand(a, shop), await onHand(b, shop), await onHand(a, store2)], [5, 1, undefined])
    const same = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: shop,
      lines: [{ product_id: a, quantity: 1 }],
    })
    assert.equal(same.status, 422)
    assert.equal(same.body.errors[0].field, 'to_location_id')
    const nowhere = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: 'loc_nowhere',
      lines: [{ product_id: a, quantity: 1 }],
    })
    assert.equal(nowhere.status, 422)
    assert.equal(nowhere.body.errors[0].field, 'to_location_id')
    const badProduct = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [{ product_id: 'prod_x', quantity: 1 }],
    })
    assert.equal(badProduct.status, 422)
    assert.equal(badProduct.body.errors[0].field, 'lines.0.product_id')
    const empty = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [],
    })
    assert.equal(empty.status, 422)
    const zero = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [{ product_id: a, quantity: 0 }],
    })
    assert.equal(zero.status, 422)
    assert.equal(zero.body.errors[0].field, 'lines.0.quantity')
    assert.equal((await api.get('/api/v1/inventory/transfers/trf_missing')).status, 404)
  })

  it('hides transfers from another merchant with 404', async () => {
    const a = await newProduct()
    await adjust({ product_id: a, location_id: shop, quantity: 1, reason: 'received' })
    const { body } = await api.post('/api/v1/inventory/transfer', {
      from_location_id: shop,
      to_location_id: store2,
      lines: [{ product_id: a, quantity: 1 }],
    })
    const stranger = clientFor(app.api, (await createMerchant(app)).token)
    assert.equal((await stranger.get(`/api/v1/inventory/transfers/${body.data.id}`)).status, 404)
    const theirLocation = (await stranger.post('/api/v1/locations', { name: 'Theirs' })).body.data.id
    const intoMine = await stranger.post('/api/v1/inventory/transfer', {
      from_location_id: theirLocation,
      to_location_id: shop,
      lines: [{ product_id: a, quantity: 1 }],
    })
    assert.equal(intoMine.status, 422)
    assert.equal(intoMine.body.errors[0].field, 'to_location_id')
  })

  it('alerts at or below the reorder point and at zero, emitting low_stock and stockout once per crossing', async () => {
    const productId = await newProduct()
    await adjust({ product_id: productId, location_id: shop, quantity: 8, reason: 'received' })
    const set = await api.put('/api/v1/inventory/reorder-points', {
      product_id: productId,
      location_id: shop,
      reorder_point: 5,
    })
    assert.equal(set.status, 200)
    assert.equal(set.body.data.reorder_point, 5)
    assert.equal(set.body.data.status, 'in_stock')
    const alertsFor = async () =>
      (await api.get(`/api/v1/inventory/alerts?location_id=${shop}&limit=200`)).body.data.filter(
        (l: { product_id: string }) => l.product_id === productId,
      )

    assert.deepEqual(await alertsFor(), [])
    await adjust({ product_id: productId, location_id: shop, quantity: -3, reason: 'damaged' })
    const low = await alertsFor()
    assert.equal(low.length, 1)
    assert.deepEqual([low[0].on_hand, low[0].status], [5, 'low_stock'])
    await adjust({ product_id: productId, location_id: shop, quantity: -1, reason: 'damaged' })
    const lowEvents = (await eventsOf('inventory.low_stock')).filter((e) => e.product_id === productId)
    assert.equal(lowEvents.length, 1)
    assert.equal(lowEvents[0].on_hand, 5)

    await adjust({ product_id: productId, location_id: shop, quantity: -4, reason: 'theft' })
    const out = await alertsFor()
    assert.deepEqual([out[0].on_hand, out[0].status], [0, 'out_of_stock'])
    const stockouts = (await eventsOf('inventory.stockout')).filter((e) => e.product_id === productId)
    assert.equal(stockouts.length, 1)

    await adjust({ product_id: productId, location_id: shop, quantity: 10, reason: 'received' })
    assert.deepEqual(await alertsFor(), [])
    const cleared = await api.put('/api/v1/inventory/reorder-points', {
      product_id: productId,
      location_id: shop,
      reorder_point: null,
    })
    assert.equal(cleared.body.data.reorder_point, null)
    const bad = await api.put('/api/v1/inventory/reorder-points', {
      product_id: productId,
      location_id: shop,
      reorder_point: -1,
    })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'reorder_point')
    const fresh = await api.put('/api/v1/inventory/reorder-points', {
      product_id: productId,
      location_id: store2,
      reorder_point: 2,
    })
    assert.deepEqual([fresh.body.data.on_hand, fresh.body.data.status], [0, 'out_of_stock'])
  })

  it('draws bundles down through their components and refuses to adjust a bundle itself', async () => {
    const cup = await newProduct()
    const saucer = await newProduct()
    const set = await newProduct()
    const ctx = systemContext(app.runtime.database, merchant.orgId, [])
    await app.services.catalog.bundles.create(ctx, {
      product_id: set,
      components: [
        { product_id: cup, quantity: 2 },
        { product_id: saucer, quantity: 1 },
      ],
    })
    await adjust({ product_id: cup, location_id: shop, quantity: 10, reason: 'received' })
    await adjust({ product_id: saucer, location_id: shop, quantity: 3, reason: 'received' })
    const movements = await ctx.db.tx(() =>
      app.services.inventory.applyChanges(ctx, [
        { productId: set, locationId: shop, quantity: -3, reason: 'sale', reference: { type: 'order', id: 'ord_1' } },
      ]),
    )
    assert.deepEqual(
      movements.map((m) => [m.product_id, m.quantity, m.quantity_after]),
      [
        [cup, -6, 4],
        [saucer, -3, 0],
      ],
    )
    await assert.rejects(
      ctx.db.tx(() =>
        app.services.inventory.applyChanges(ctx, [
          { productId: set, locationId: shop, quantity: -1, reason: 'sale', field: 'lines.3' },
        ]),
      ),
      (error: { status: number; errors: { field: string }[] }) =>
        error.status === 409 && error.errors[0].field === 'lines.3',
    )
    assert.equal(await onHand(cup, shop), 4)
    const direct = await adjust({ product_id: set, location_id: shop, quantity: 1, reason: 'received' })
    assert.equal(direct.status, 422)
    assert.equal(direct.body.errors[0].field, 'product_id')
  })

  it('filters the ledger by product, location, reason, reference and date range, in pages', async () => {
    const productId = await newProduct()
    await adjust({
      product_id: productId,
      location_id: shop,
      quantity: 3,
      reason: 'received',
      occurred_at: '2024-01-10T10:00:00.000Z',
    })
    await adjust({
      product_id: productId,
      location_id: shop,
      quantity: -1,
      reason: 'damaged',
      occurred_at: '2024-02-10T10:00:00.000Z',
    })
    await adjust({
      product_id: productId,
      location_id: store2,
      quantity: 2,
      reason: 'received',
      occurred_at: '2024-03-10T10:00:00.000Z',
    })
    await adjust({ product_id: productId, location_id: shop, quantity: 1, reason: 'return' })
    const list = async (query: string) =>
      (await api.get(`/api/v1/inventory/movements?product_id=${productId}&${query}`)).body.data
    assert.equal((await list('')).length, 4)
    assert.deepEqual(
      (await list('order=newest')).map((m: { id: string }) => m.id),
      (await list('')).map((m: { id: string }) => m.id).reverse(),
    )
    assert.equal((await list(`location_id=${store2}`)).length, 1)
    assert.deepEqual(
      (await list('reason=damaged')).map((m: { quantity: number }) => m.quantity),
      [-1],
    )
    assert.deepEqual(
      (await list('from=2024-02-01T00:00:00Z&to=2024-03-31T00:00:00Z')).map((m: { reason: string }) => m.reason),
      ['damaged', 'received'],
    )
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page = await api.get(
        `/api/v1/inventory/movements?product_id=${productId}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      )
      seen.push(...page.body.data.map((m: { id: string }) => m.id))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.equal(seen.length, 4)
    assert.deepEqual([...seen].sort(), seen)
    assert.equal((await api.get('/api/v1/inventory/movements?reason=stolen')).status, 400)
    assert.equal((await api.get('/api/v1/inventory/movements?from=yesterday')).status, 400)
  })

  it('lists levels in pages, filtered by location and product', async () => {
    const ids = [await newProduct(), await newProduct(), await newProduct()]
    for (const id of ids) await adjust({ product_id: id, location_id: store2, quantity: 1, reason: 'received' })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page = await api.get(
        `/api/v1/inventory/levels?location_id=${store2}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      assert.equal(page.status, 200)
      assert.ok(page.body.data.every((l: { location_id: string; product_id: string }) => l.location_id === store2))
      seen.push(...page.body.data.map((l: { product_id: string }) => l.product_id))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    for (const id of ids) assert.ok(seen.includes(id))
    assert.equal(new Set(seen).size, seen.length)
  })

  it('lets staff read stock but not change it', async () => {
    const email = `staff-${Date.now()}@example.test`
    await app.runtime.database.transaction(merchant.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: merchant.orgId, email, role: 'staff', password: 'staff-password' }),
    )
    const login = await clientFor(app.api).post('/api/v1/auth/login', { email, password: 'staff-password' })
    const staff = clientFor(app.api, login.body.data.accessToken)
    assert.equal((await staff.get('/api/v1/inventory/levels')).status, 200)
    assert.equal((await staff.get('/api/v1/inventory/alerts')).status, 200)
    const productId = await newProduct()
    assert.equal(
      (
        await staff.post('/api/v1/inventory/adjust', {
          product_id: productId,
          location_id: shop,
          quantity: 1,
          reason: 'received',
        })
      ).status,
      403,
    )
  })
})
