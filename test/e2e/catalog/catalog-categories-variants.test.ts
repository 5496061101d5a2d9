import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../support/harness.ts'
import { type Api, appWithTwoMerchants, created } from '../../support/two-orgs.ts'

describe('catalog categories and variants', () => {
  let app: TestApp
  let api: Api
  let other: Api
  before(async () => {
    ;({ app, api, other } = await appWithTwoMerchants())
  })
  after(() => app.close())

  const category = (body: object) => created(api, '/api/v1/categories', body)

  it('creates, reads, updates and archives a category in a tree', async () => {
    const drinks = await category({ name: 'Drinks', sort_order: 1 })
    assert.equal(drinks.parent_id, null)
    assert.equal(drinks.is_active, true)
    assert.equal(drinks.version, 1)
    const hot = await category({ name: 'Hot drinks', parent_id: drinks.id, description: 'brewed' })
    assert.equal(hot.parent_id, drinks.id)

    const got = await api.get(`/api/v1/categories/${hot.id}`)
    assert.equal(got.status, 200)
    assert.equal(got.body.data.description, 'brewed')

    const patched = await api.patch(`/api/v1/categories/${hot.id}`, { name: 'Hot', sort_order: 5 }, { 'if-match': '1' })
    assert.equal(patched.status, 200)
    assert.equal(patched.body.data.name, 'Hot')
    assert.equal(patched.body.data.version, 2)

    const archived = await api.delete(`/api/v1/categories/${hot.id}`)
    assert.equal(archived.status, 200)
    assert.equal(archived.body.data.is_active, false)
    assert.equal((await api.get(`/api/v1/categories/${hot.id}`)).body.data.is_active, false)
  })

  it('refuses a missing parent and a cycle with 422 naming parent_id, changing nothing', async () => {
    const missing = await api.post('/api/v1/categories', { name: 'Orphan', parent_id: 'cat_nope' })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'parent_id')

    const a = await category({ name: 'A' })
    const b = await category({ name: 'B', parent_id: a.id })
    const c = await category({ name: 'C', parent_id: b.id })
    const loop = await api.patch(`/api/v1/categories/${a.id}`, { parent_id: c.id })
    assert.equal(loop.status, 422)
    assert.equal(loop.body.errors[0].field, 'parent_id')
    assert.equal(loop.body.errors[0].code, 'cycle')
    const self = await api.patch(`/api/v1/categories/${a.id}`, { parent_id: a.id })
    assert.equal(self.status, 422)
    const after = await api.get(`/api/v1/categories/${a.id}`)
    assert.equal(after.body.data.parent_id, null)
    assert.equal(after.body.data.version, 1)

    // Moving a subtree elsewhere is fine; so is moving back to the top.
    const moved = await api.patch(`/api/v1/categories/${c.id}`, { parent_id: null })
    assert.equal(moved.status, 200)
    assert.equal(moved.body.data.parent_id, null)
  })

  it('refuses unknown fields, blank names and read-only fields', async () => {
    const unknown = await api.post('/api/v1/categories', { name: 'X', colour: 'red' })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'colour')
    const blank = await api.post('/api/v1/categories', { name: '   ' })
    assert.equal(blank.status, 422)
    assert.equal(blank.body.errors[0].field, 'name')
    const readOnly = await api.post('/api/v1/categories', { name: 'X', id: 'cat_mine' })
    assert.equal(readOnly.status, 422)
    assert.equal(readOnly.body.errors[0].code, 'read_only')
  })

  it('answers a stale version on PATCH with 409 and leaves the category as it was', async () => {
    const cat = await category({ name: 'Versioned' })
    assert.equal((await api.patch(`/api/v1/categories/${cat.id}`, { name: 'V2', version: 1 })).status, 200)
    const stale = await api.patch(`/api/v1/categories/${cat.id}`, { name: 'V3' }, { 'if-match': '1' })
    assert.equal(stale.status, 409)
    assert.equal((await api.get(`/api/v1/categories/${cat.id}`)).body.data.name, 'V2')
  })

  it('pages through categories by sort order with no empty last page when the total is a multiple of the page size', async () => {
    const parent = await category({ name: 'Paged parent' })
    const orders = [3, 1, 2, 1, 3, 2]
    for (const [i, sort_order] of orders.entries())
      await category({ name: `child ${i}`, parent_id: parent.id, sort_order })
    const seen: { id: string; sort_order: number }[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await api.get(`/api/v1/categories?parent_id=${parent.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      assert.equal(res.status, 200)
      assert.ok(res.body.data.length > 0, 'no empty page')
      seen.push(...res.body.data)
      cursor = res.body.pagination.nextCursor
      assert.equal(res.body.pagination.hasMore, cursor !== null)
      pages++
    } while (cursor)
    assert.equal(pages, 3)
    assert.deepEqual(
      seen.map((c) => c.sort_order),
      [1, 1, 2, 2, 3, 3],
    )
    assert.equal(new Set(seen.map((c) => c.id)).size, 6)

    const roots = await api.get('/api/v1/categories?parent_id=null&limit=200')
    assert.ok(roots.body.data.every((c: { parent_id: string; id: string }) => c.parent_id === null))
    assert.ok(roots.body.data.some((c: { id: string }) => c.id === parent.id))
    assert.equal((await api.get('/api/v1/categories?cursor=bogus')).status, 400)
  })

  it('hides categories from another org behind 404s', async () => {
    const cat = await category({ name: 'Private' })
    assert.equal((await other.get(`/api/v1/categories/${cat.id}`)).status, 404)
    assert.equal((await other.patch(`/api/v1/categories/${cat.id}`, { name: 'Hijack' })).status, 404)
    assert.equal((await other.delete(`/api/v1/categories/${cat.id}`)).status, 404)
    const child = await other.post('/api/v1/categories', { name: 'Sneaky', parent_id: cat.id })
    assert.equal(child.status, 422)
    assert.equal((await other.get('/api/v1/categories')).body.data.length, 0)
  })

  describe('variants', () => {
    let productId: string
    before(async () => {
      const res = await api.post('/api/v1/products', { name: 'T-shirt', sku: 'TEE', base_price: 20 })
      productId = res.body.data.id
    })

    it('creates, lists, reads, updates and archives variants of a product', async () => {
      const created = await api.post(`/api/v1/products/${productId}/variants`, {
        name: 'Large',
        sku: 'TEE-L',
        option_values: { size: 'L' },
        price: 22.5,
        barcodes: ['123', '123'],
      })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      const v = created.body.data
      assert.equal(v.product_id, productId)
      assert.deepEqual(v.option_values, { size: 'L' })
      assert.equal(v.price, 22.5)
      assert.equal(v.currency, 'USD')
      assert.deepEqual(v.barcodes, ['123'])
      const small = await api.post(`/api/v1/products/${productId}/variants`, {
        name: 'Small',
        sku: 'TEE-S',
        option_values: { size: 'S' },
      })
      assert.equal(small.body.data.price, null)

      const list = await api.get(`/api/v1/products/${productId}/variants`)
      assert.equal(list.status, 200)
      assert.deepEqual(
        list.body.data.map((x: { sku: string }) => x.sku),
        ['TEE-L', 'TEE-S'],
      )

      const patched = await api.patch(`/api/v1/variants/${v.id}`, { price: null, name: 'L' }, { 'if-match': '1' })
      assert.equal(patched.status, 200)
      assert.equal(patched.body.data.price, null)
      assert.equal(patched.body.data.version, 2)
      assert.equal((await api.patch(`/api/v1/variants/${v.id}`, { name: 'Stale' }, { 'if-match': '1' })).status, 409)

      const archived = await api.delete(`/api/v1/variants/${v.id}`)
      assert.equal(archived.status, 200)
      assert.equal(archived.body.data.is_active, false)
      const active = await api.get(`/api/v1/products/${productId}/variants?is_active=true`)
      assert.deepEqual(
        active.body.data.map((x: { sku: string }) => x.sku),
        ['TEE-S'],
      )
      assert.equal((await api.get(`/api/v1/variants/${v.id}`)).body.data.name, 'L')
    })

    it('keeps SKUs unique across the products and variants of an org', async () => {
      const clash = await api.post(`/api/v1/products/${productId}/variants`, { name: 'Dup', sku: 'TEE' })
      assert.equal(clash.status, 422)
      assert.equal(clash.body.errors[0].field, 'sku')
      assert.equal(clash.body.errors[0].code, 'taken')
      const mine = await api.post(`/api/v1/products/${productId}/variants`, { name: 'XL', sku: 'TEE-XL' })
      const product = await api.post('/api/v1/products', { name: 'Clash', sku: 'TEE-XL' })
      assert.equal(product.status, 422)
      assert.equal(product.body.errors[0].field, 'sku')
      const rename = await api.patch(`/api/v1/variants/${mine.body.data.id}`, { sku: 'TEE-S' })
      assert.equal(rename.status, 422)
      // Another org may use the same SKU.
      const theirs = await other.post('/api/v1/products', { name: 'Other tee', sku: 'TEE-XL' })
      assert.equal(theirs.status, 201)
    })

    it('validates variant fields and names them', async () => {
      const precise = await api.post(`/api/v1/products/${productId}/variants`, {
        name: 'P',
        sku: 'TEE-P',
        price: 1.234,
      })
      assert.equal(precise.status, 422)
      assert.equal(precise.body.errors[0].field, 'price')
      const missing = await api.post(`/api/v1/products/${productId}/variants`, { name: 'No sku' })
      assert.equal(missing.status, 422)
      assert.equal(missing.body.errors[0].field, 'sku')
      const badOptions = await api.post(`/api/v1/products/${productId}/variants`, {
        name: 'O',
        sku: 'TEE-O',
        option_values: { size: 3 },
      })
      assert.equal(badOptions.status, 422)
      assert.equal((await api.post('/api/v1/products/prod_nope/variants', { name: 'X', sku: 'X-1' })).status, 404)
    })

    it('pages through variants with an exact multiple of the page size', async () => {
      const p = await api.post('/api/v1/products', { name: 'Socks', sku: 'SOCK', base_price: 5 })
      for (const size of ['S', 'M', 'L', 'XL'])
        await api.post(`/api/v1/products/${p.body.data.id}/variants`, { name: size, sku: `SOCK-${size}` })
      const first = await api.get(`/api/v1/products/${p.body.data.id}/variants?limit=2`)
      assert.equal(first.body.pagination.hasMore, true)
      const second = await api.get(
        `/api/v1/products/${p.body.data.id}/variants?limit=2&cursor=${first.body.pagination.nextCursor}`,
      )
      assert.equal(second.body.data.length, 2)
      assert.deepEqual(second.body.pagination, { nextCursor: null, hasMore: false })
    })

    it('hides variants from another org behind 404s', async () => {
      const v = await api.post(`/api/v1/products/${productId}/variants`, { name: 'Hidden', sku: 'TEE-H' })
      assert.equal((await other.get(`/api/v1/variants/${v.body.data.id}`)).status, 404)
      assert.equal((await other.patch(`/api/v1/variants/${v.body.data.id}`, { name: 'Mine' })).status, 404)
      assert.equal((await other.delete(`/api/v1/variants/${v.body.data.id}`)).status, 404)
      assert.equal((await other.get(`/api/v1/products/${productId}/variants`)).status, 404)
      assert.equal((await other.post(`/api/v1/products/${productId}/variants`, { name: 'X', sku: 'X-2' })).status, 404)
    })
  })
})
