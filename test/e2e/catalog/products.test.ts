import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  type Call,
  clientFor,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../support/harness.ts'

describe('products over REST', () => {
  let app: TestApp
  let merchant: Merchant
  let other: Merchant
  let api: ReturnType<typeof clientFor>
  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app, { currency: 'USD' })
    other = await createMerchant(app, { currency: 'JPY' })
    api = clientFor(app.api, merchant.token)
  })
  after(() => app.close())

  it('creates, reads, updates and archives a product', async () => {
    const created = await api.post('/api/v1/products', {
      name: 'Flat White',
      sku: 'FW-1',
      base_price: 4.5,
      barcodes: ['940000001'],
      tags: ['coffee'],
    })
    assert.equal(created.status, 201)
    const product = created.body.data
    assert.match(product.id, /^prod_/)
    assert.equal(product.base_price, 4.5)
    assert.equal(product.currency, 'USD')
    assert.equal(product.is_active, true)
    assert.equal(product.version, 1)
    assert.match(product.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

    const fetched = await api.get(`/api/v1/products/${product.id}`)
    assert.deepEqual(fetched.body.data, product)

    const patched = await api.patch(`/api/v1/products/${product.id}`, { base_price: 4.75, tags: ['coffee', 'hot'] })
    assert.equal(patched.status, 200)
    assert.equal(patched.body.data.base_price, 4.75)
    assert.equal(patched.body.data.version, 2)

    const archived = await api.delete(`/api/v1/products/${product.id}`)
    assert.equal(archived.status, 200)
    assert.equal(archived.body.data.is_active, false)
    assert.equal((await api.get(`/api/v1/products/${product.id}`)).body.data.is_active, false)
  })

  it('requires sku and names every bad field in a 422, changing nothing', async () => {
    const before = await api.get('/api/v1/products?limit=200')
    const res = await api.post('/api/v1/products', { name: 'No SKU', colour: 'red', id: 'prod_x', base_price: 'x' })
    assert.equal(res.status, 422)
    assert.equal(res.body.type, 'https://errors.opentill.dev/validation')
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort()
    assert.deepEqual(fields, ['base_price', 'colour', 'id', 'sku'])
    assert.equal(res.body.errors.find((e: { field: string }) => e.field === 'id').code, 'read_only')
    assert.equal(res.body.errors.find((e: { field: string }) => e.field === 'colour').code, 'unknown_field')
    const after = await api.get('/api/v1/products?limit=200')
    assert.equal(after.body.data.length, before.body.data.length)
  })

  it('refuses a price with more decimals than the currency has', async () => {
    const usd = await api.post('/api/v1/products', { name: 'X', sku: 'PREC-1', base_price: 1.234 })
    assert.equal(usd.status, 422)
    assert.equal(usd.body.errors[0].field, 'base_price')
    const jpy = await clientFor(app.api, other.token).post('/api/v1/products', {
      name: 'Y',
      sku: 'PREC-2',
      base_price: 100.5,
    })
    assert.equal(jpy.status, 422)
    const ok = await clientFor(app.api, other.token).post('/api/v1/products', {
      name: 'Y',
      sku: 'PREC-3',
      base_price: 500,
    })
    assert.equal(ok.body.data.base_price, 500)
    assert.equal(ok.body.data.currency, 'JPY')
  })

  it('keeps money exact to the cent', async () => {
    const res = await api.post('/api/v1/products', { name: 'Odd', sku: 'CENT-1', base_price: 19.99 })
    assert.equal(res.body.data.base_price, 19.99)
    const patched = await api.patch(`/api/v1/products/${res.body.data.id}`, { base_price: 0.07 })
    assert.equal(patched.body.data.base_price, 0.07)
  })

  it('refuses a duplicate SKU with a 422 naming sku', async () => {
    await api.post('/api/v1/products', { name: 'A', sku: 'DUP-1' })
    const dup = await api.post('/api/v1/products', { name: 'B', sku: 'DUP-1' })
    assert.equal(dup.status, 422)
    assert.equal(dup.body.errors[0].field, 'sku')
    assert.equal(dup.body.errors[0].code, 'taken')
  })

  it('pages through an exact multiple of the page size without an empty last page', async () => {
    const shop = await createMerchant(app)
    const client = clientFor(app.api, shop.token)
    for (let i = 0; i < 6; i++) await client.post('/api/v1/products', { name: `P${i}`, sku: `PAGE-${i}` })
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: { body: { data: { sku: string }[]; pagination: { nextCursor: string | null; hasMore: boolean } } } =
        await client.get(`/api/v1/products?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      pages++
      assert.equal(res.body.data.length, 3)
      seen.push(...res.body.data.map((p) => p.sku))
      cursor = res.body.pagination.nextCursor
      assert.equal(res.body.pagination.hasMore, cursor !== null)
    } while (cursor)
    assert.equal(pages, 2)
    assert.deepEqual(seen, ['PAGE-0', 'PAGE-1', 'PAGE-2', 'PAGE-3', 'PAGE-4', 'PAGE-5'])
  })

  it('answers a malformed cursor or limit with a 400 naming it', async () => {
    const cursor = await api.get('/api/v1/products?cursor=%%%garbage')
    assert.equal(cursor.status, 400)
    assert.equal(cursor.body.errors[0].field, 'cursor')
    const limit = await api.get('/api/v1/products?limit=201')
    assert.equal(limit.status, 400)
    assert.equal(limit.body.errors[0].field, 'limit')
    const nan = await api.get('/api/v1/products?limit=ten')
    assert.equal(nan.status, 400)
  })

  it('filters by category, active flag and a search over name, SKU and barcode', async () => {
    const shop = await createMerchant(app)
    const client = clientFor(app.api, shop.token)
    await app.runtime.database.transaction(shop.orgId, (q) =>
      q.query("INSERT INTO categories (id, org_id, name) VALUES ('cat_drinks', $1, 'Drinks')", [shop.orgId]),
    )
    await client.post('/api/v1/products', { name: 'Mocha', sku: 'S-1', category_id: 'cat_drinks' })
    await client.post('/api/v1/products', { name: 'Scone', sku: 'S-2', barcodes: ['777123'] })
    const archived = await client.post('/api/v1/products', { name: 'Old Mocha', sku: 'S-3' })
    await client.delete(`/api/v1/products/${archived.body.data.id}`)

    const byCategory = await client.get('/api/v1/products?category_id=cat_drinks')
    assert.deepEqual(
      byCategory.body.data.map((p: { sku: string }) => p.sku),
      ['S-1'],
    )
    const active = await client.get('/api/v1/products?is_active=true')
    assert.deepEqual(
      active.body.data.map((p: { sku: string }) => p.sku),
      ['S-1', 'S-2'],
    )
    const byName = await client.get('/api/v1/products?q=mocha')
    assert.deepEqual(
      byName.body.data.map((p: { sku: string }) => p.sku),
      ['S-1', 'S-3'],
    )
    const bySku = await client.get('/api/v1/products?q=s-2')
    assert.deepEqual(
      bySku.body.data.map((p: { sku: string }) => p.sku),
      ['S-2'],
    )
    const byBarcode = await client.get('/api/v1/products?q=777123')
    assert.deepEqual(
      byBarcode.body.data.map((p: { sku: string }) => p.sku),
      ['S-2'],
    )
    // A scan and a SKU are exact: a part of either finds nothing.
    await client.post('/api/v1/products', { name: 'Scone box', sku: 'S-20', barcodes: ['7771234', '5012345678900'] })
    const scanned = await client.get('/api/v1/products?barcode=5012345678900')
    assert.deepEqual(
      scanned.body.data.map((p: { sku: string }) => p.sku),
      ['S-20'],
    )
    assert.deepEqual(
      (await client.get('/api/v1/products?barcode=777123')).body.data.map((p: { sku: string }) => p.sku),
      ['S-2'],
    )
    assert.deepEqual((await client.get('/api/v1/products?barcode=50123')).body.data, [])
    assert.deepEqual(
      (await client.get('/api/v1/products?sku=S-2')).body.data.map((p: { sku: string }) => p.sku),
      ['S-2'],
    )
    assert.deepEqual((await client.get('/api/v1/products?sku=s-2')).body.data, [])
    assert.equal((await client.get('/api/v1/products?barcode=')).status, 400)
    // q is a union of name/SKU matches and barcode matches: a product in both comes once, pages follow the cursor,
    // and a barcode filter narrows a search.
    await client.post('/api/v1/products', { name: 'Box 777123', sku: 'S-21', barcodes: ['777123'] })
    const pages: string[] = []
    let cursor: string | null = null
    do {
      const page: Call = await client.get(`/api/v1/products?q=777123&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      pages.push(...page.body.data.map((p: { sku: string }) => p.sku))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.deepEqual(pages, ['S-2', 'S-21'])
    const narrowed = await client.get('/api/v1/products?q=box&barcode=777123')
    assert.deepEqual(
      narrowed.body.data.map((p: { sku: string }) => p.sku),
      ['S-21'],
    )
    const unknownCategory = await client.post('/api/v1/products', { name: 'Z', sku: 'S-4', category_id: 'cat_nope' })
    assert.equal(unknownCategory.status, 422)
    assert.equal(unknownCategory.body.errors[0].field, 'category_id')
  })

  it('lists the products of up to 100 ids at once, and refuses ids with a search', async () => {
    const made = await Promise.all(
      ['Ids one', 'Ids two', 'Ids three'].map(
        async (name, i) =>
          (await api.post('/api/v1/products', { name, sku: `IDS-${i}`, base_price: 1 })).body.data.id as string,
      ),
    )
    const two = await api.get(`/api/v1/products?ids=${made[2]},${made[0]},prod_missing`)
    assert.equal(two.status, 200)
    // In id order, as every page of products; the three were made at once, so their ids may sort either way.
    assert.deepEqual(
      two.body.data.map((p: { id: string }) => p.id),
      [made[0], made[2]].sort(),
    )
    const both = await api.get(`/api/v1/products?ids=${made[0]}&q=Ids`)
    assert.equal(both.status, 422)
    assert.equal(both.body.errors[0].field, 'ids')
    const tooMany = await api.get(`/api/v1/products?ids=${Array.from({ length: 101 }, (_, i) => `p${i}`).join(',')}`)
    assert.equal(tooMany.status, 400)
  })

  it('creates and updates products by SKU in one batch, all or none, and changes nothing when sent again', async () => {
    const existing = (await api.post('/api/v1/products', { name: 'Batch espresso', sku: 'BAT-ESP', base_price: 3 }))
      .body.data
    const batch = {
      products: [
        { sku: 'BAT-ESP', base_price: 3.2 },
        { sku: 'BAT-TEA', name: 'Batch tea', base_price: 2.8, track_inventory: false },
      ],
    }
    const first = await api.post('/api/v1/products/batch', batch)
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.equal(first.body.data.created, 1)
    assert.equal(first.body.data.updated, 1)
    assert.deepEqual(
      first.body.data.products.map((p: { sku: string; base_price: number }) => [p.sku, p.base_price]),
      [
        ['BAT-ESP', 3.2],
        ['BAT-TEA', 2.8],
      ],
    )
    assert.equal(first.body.data.products[0].id, existing.id)
    assert.equal(first.body.data.products[0].name, 'Batch espresso', 'fields not given stay')
    const again = await api.post('/api/v1/products/batch', batch)
    assert.deepEqual([again.body.data.created, again.body.data.updated], [0, 0])
    assert.equal(again.body.data.products[0].version, first.body.data.products[0].version)

    // One bad item refuses the batch, naming its field; nothing of it is written.
    const refused = await api.post('/api/v1/products/batch', {
      products: [
        { sku: 'BAT-ESP', base_price: 9 },
        { sku: 'BAT-NEW', name: 'No price' },
        { sku: 'BAT-ODD', name: 'Odd', base_price: 1.234 },
      ],
    })
    assert.equal(refused.status, 422)
    assert.equal(refused.body.errors[0].field, 'products.2.base_price')
    const missing = await api.post('/api/v1/products/batch', {
      products: [
        { sku: 'BAT-ESP', base_price: 9 },
        { sku: 'BAT-NEW', name: 'No price' },
      ],
    })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'products.1.base_price')
    const twice = await api.post('/api/v1/products/batch', { products: [{ sku: 'X1' }, { sku: 'X1' }] })
    assert.equal(twice.body.errors[0].field, 'products.1.sku')
    assert.equal((await api.get(`/api/v1/products/${existing.id}`)).body.data.base_price, 3.2)
    assert.deepEqual((await api.get('/api/v1/products?sku=BAT-NEW')).body.data, [])

    const stale = await api.post('/api/v1/products/batch', {
      products: [{ sku: 'BAT-ESP', base_price: 7, version: first.body.data.products[0].version - 1 }],
    })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.code, 'STALE_VERSION')
    const current = await api.post('/api/v1/products/batch', {
      products: [{ sku: 'BAT-ESP', base_price: 3.3, version: first.body.data.products[0].version }],
    })
    assert.equal(current.status, 200, JSON.stringify(current.body))
    assert.equal(current.body.data.updated, 1)
    const tooMany = await api.post('/api/v1/products/batch', {
      products: Array.from({ length: 501 }, (_, i) => ({ sku: `T${i}` })),
    })
    assert.equal(tooMany.status, 422)
  })

  it('answers 409 to a PATCH with a stale version or If-Match, and 400 to a malformed one', async () => {
    const created = await api.post('/api/v1/products', { name: 'V', sku: 'VER-1' })
    const id = created.body.data.id
    assert.equal((await api.patch(`/api/v1/products/${id}`, { name: 'V2', version: 1 })).status, 200)
    const stale = await api.patch(`/api/v1/products/${id}`, { name: 'V3', version: 1 })
    assert.equal(stale.status, 409)
    assert.equal(stale.body.type, 'https://errors.opentill.dev/stale-version')
    const staleHeader = await api.patch(`/api/v1/products/${id}`, { name: 'V3' }, { 'if-match': '"1"' })
    assert.equal(staleHeader.status, 409)
    const fresh = await api.patch(`/api/v1/products/${id}`, { name: 'V3' }, { 'if-match': '"2"' })
    assert.equal(fresh.status, 200)
    assert.equal(fresh.body.data.version, 3)
    assert.equal((await api.patch(`/api/v1/products/${id}`, { name: 'V4' }, { 'if-match': 'abc' })).status, 400)
    assert.equal((await api.get(`/api/v1/products/${id}`)).body.data.name, 'V3')
  })

  it('replays an idempotent POST, refuses the key with another body, and creates one product under a parallel burst', async () => {
    const body = { name: 'Idem', sku: 'IDEM-1' }
    const first = await api.post('/api/v1/products', body, { 'idempotency-key': 'key-1' })
    const again = await api.post('/api/v1/products', body, { 'idempotency-key': 'key-1' })
    assert.equal(first.status, 201)
    assert.equal(again.status, 201)
    assert.equal(again.headers['idempotent-replayed'], 'true')
    assert.deepEqual(again.body, first.body)
    const changed = await api.post('/api/v1/products', { ...body, name: 'Other' }, { 'idempotency-key': 'key-1' })
    assert.equal(changed.status, 422)

    const burst = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.post('/api/v1/products', { name: 'Burst', sku: 'BURST-1' }, { 'idempotency-key': 'key-burst' }),
      ),
    )
    for (const r of burst) assert.ok([201, 409].includes(r.status), `unexpected ${r.status}`)
    const ids = new Set(burst.filter((r) => r.status === 201).map((r) => r.body.data.id))
    assert.equal(ids.size, 1)
    const listed = await api.get('/api/v1/products?q=BURST-1')
    assert.equal(listed.body.data.length, 1)
  })

  it('keeps each org to its own products: another org gets 404s and empty lists', async () => {
    const created = await api.post('/api/v1/products', { name: 'Mine', sku: 'ISO-1' })
    const id = created.body.data.id
    const intruder = clientFor(app.api, other.token)
    assert.equal((await intruder.get(`/api/v1/products/${id}`)).status, 404)
    assert.equal((await intruder.patch(`/api/v1/products/${id}`, { name: 'Theirs' })).status, 404)
    assert.equal((await intruder.delete(`/api/v1/products/${id}`)).status, 404)
    const list = await intruder.get('/api/v1/products?q=ISO-1')
    assert.deepEqual(list.body.data, [])
    assert.equal((await api.get(`/api/v1/products/${id}`)).body.data.name, 'Mine')
  })

  it('answers malformed JSON with 400, an oversized body with 413, and a missing route with 404, all as problems', async () => {
    const bad = await app.api.inject({
      method: 'POST',
      url: '/api/v1/products',
      headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().type, 'https://errors.opentill.dev/bad-request')
    const big = await app.api.inject({
      method: 'POST',
      url: '/api/v1/products',
      headers: { authorization: `Bearer ${merchant.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000), sku: 'BIG' }),
    })
    assert.equal(big.statusCode, 413)
    assert.equal(big.headers['content-type'], 'application/problem+json; charset=utf-8')
    const missing = await api.get('/api/v1/nothing-here')
    assert.equal(missing.status, 404)
    assert.equal(missing.body.instance, '/api/v1/nothing-here')
  })

  it('puts an X-Request-Id on every response and keeps a sane one from the caller', async () => {
    const mine = await api.get('/api/v1/products', { 'x-request-id': 'till-42-abc' })
    assert.equal(mine.headers['x-request-id'], 'till-42-abc')
    const generated = await clientFor(app.api).get('/api/v1/products')
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  })
})
