import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type TestApp } from '../../support/harness.ts'
import { type Api, appWithTwoMerchants, created } from '../../support/two-orgs.ts'

describe('catalog modifier groups and options', () => {
  let app: TestApp
  let api: Api
  let other: Api
  before(async () => {
    ;({ app, api, other } = await appWithTwoMerchants())
  })
  after(() => app.close())

  const group = (body: object) => created(api, '/api/v1/modifiers', body)

  it('creates a group with options and reads it back with SPEC fields', async () => {
    const milk = await group({
      name: 'Milk',
      required: true,
      min_selections: 1,
      max_selections: 1,
      options: [
        { name: 'Whole', is_default: true },
        { name: 'Oat', price_adjustment: 0.8 },
        { name: 'None', price_adjustment: -0.2 },
      ],
    })
    assert.equal(milk.required, true)
    assert.equal(milk.min_selections, 1)
    assert.equal(milk.max_selections, 1)
    assert.deepEqual(
      milk.options.map((o: { name: string; price_adjustment: number; is_default: boolean }) => [
        o.name,
        o.price_adjustment,
        o.is_default,
      ]),
      [
        ['Whole', 0, true],
        ['Oat', 0.8, false],
        ['None', -0.2, false],
      ],
    )
    const got = await api.get(`/api/v1/modifiers/${milk.id}`)
    assert.equal(got.status, 200)
    assert.equal(got.body.data.options.length, 3)
    assert.ok(got.body.data.options.every((o: { group_id: string }) => o.group_id === milk.id))
  })

  it('refuses min_selections above max_selections on create and on update, naming max_selections', async () => {
    const bad = await api.post('/api/v1/modifiers', { name: 'Bad', min_selections: 3, max_selections: 2 })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'max_selections')
    const g = await group({ name: 'Toppings', max_selections: 3 })
    assert.equal(g.min_selections, 0)
    const raise = await api.patch(`/api/v1/modifiers/${g.id}`, { min_selections: 4 })
    assert.equal(raise.status, 422)
    assert.equal(raise.body.errors[0].field, 'max_selections')
    assert.equal((await api.get(`/api/v1/modifiers/${g.id}`)).body.data.min_selections, 0)
    const unlimited = await api.patch(`/api/v1/modifiers/${g.id}`, { max_selections: null, min_selections: 4 })
    assert.equal(unlimited.status, 200)
    assert.equal(unlimited.body.data.max_selections, null)
    const optionBad = await api.post('/api/v1/modifiers', {
      name: 'X',
      options: [{ name: 'Y', price_adjustment: 0.123 }],
    })
    assert.equal(optionBad.status, 422)
    assert.equal(optionBad.body.errors[0].field, 'options.0.price_adjustment')
  })

  it('adds, updates and deletes options, bumping the group version', async () => {
    const g = await group({ name: 'Syrup' })
    const added = await api.post(`/api/v1/modifiers/${g.id}/options`, { name: 'Vanilla', price_adjustment: 0.5 })
    assert.equal(added.status, 201)
    const option = added.body.data
    assert.equal(option.price_adjustment, 0.5)
    const patched = await api.patch(
      `/api/v1/modifiers/${g.id}/options/${option.id}`,
      { price_adjustment: 0.6, is_default: true },
      { 'if-match': '1' },
    )
    assert.equal(patched.status, 200)
    assert.equal(patched.body.data.price_adjustment, 0.6)
    assert.equal(patched.body.data.version, 2)
    const stale = await api.patch(
      `/api/v1/modifiers/${g.id}/options/${option.id}`,
      { name: 'Old' },
      { 'if-match': '1' },
    )
    assert.equal(stale.status, 409)
    const group2 = await api.get(`/api/v1/modifiers/${g.id}`)
    assert.equal(group2.body.data.version, 3)
    assert.equal(group2.body.data.options[0].name, 'Vanilla')

    assert.equal((await api.delete(`/api/v1/modifiers/${g.id}/options/${option.id}`)).status, 204)
    assert.equal((await api.delete(`/api/v1/modifiers/${g.id}/options/${option.id}`)).status, 404)
    assert.equal((await api.get(`/api/v1/modifiers/${g.id}`)).body.data.options.length, 0)
    assert.equal((await api.post('/api/v1/modifiers/modg_nope/options', { name: 'X' })).status, 404)
  })

  it('updates a group with If-Match and answers a stale version with 409', async () => {
    const g = await group({ name: 'Size' })
    const ok = await api.patch(
      `/api/v1/modifiers/${g.id}`,
      { name: 'Cup size', required: true },
      { 'if-match': String(g.version) },
    )
    assert.equal(ok.status, 200)
    assert.equal(ok.body.data.name, 'Cup size')
    const stale = await api.patch(`/api/v1/modifiers/${g.id}`, { name: 'Again', version: g.version })
    assert.equal(stale.status, 409)
  })

  it('attaches groups to a product in order, filters the list by product, and detaches on delete', async () => {
    const product = (await api.post('/api/v1/products', { name: 'Latte', sku: 'LAT', base_price: 5 })).body.data
    const a = await group({ name: 'Shots', options: [{ name: 'Extra shot', price_adjustment: 0.7 }] })
    const b = await group({ name: 'Lid' })
    const put = await api.put(`/api/v1/products/${product.id}/modifiers`, { modifier_group_ids: [b.id, a.id] })
    assert.equal(put.status, 200, JSON.stringify(put.body))
    assert.deepEqual(
      put.body.data.map((g: { id: string }) => g.id),
      [b.id, a.id],
    )
    const attached = await api.get(`/api/v1/products/${product.id}/modifiers`)
    assert.deepEqual(
      attached.body.data.map((g: { id: string }) => g.id),
      [b.id, a.id],
    )
    const filtered = await api.get(`/api/v1/modifiers?product_id=${product.id}`)
    assert.deepEqual(filtered.body.data.map((g: { id: string }) => g.id).sort(), [a.id, b.id].sort())

    const unknown = await api.put(`/api/v1/products/${product.id}/modifiers`, {
      modifier_group_ids: [a.id, 'modg_nope'],
    })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'modifier_group_ids.1')
    const dup = await api.put(`/api/v1/products/${product.id}/modifiers`, { modifier_group_ids: [a.id, a.id] })
    assert.equal(dup.status, 422)
    assert.equal((await api.get(`/api/v1/products/${product.id}/modifiers`)).body.data.length, 2)

    assert.equal((await api.delete(`/api/v1/modifiers/${b.id}`)).status, 204)
    assert.equal((await api.get(`/api/v1/modifiers/${b.id}`)).status, 404)
    assert.deepEqual(
      (await api.get(`/api/v1/products/${product.id}/modifiers`)).body.data.map((g: { id: string }) => g.id),
      [a.id],
    )
    const cleared = await api.put(`/api/v1/products/${product.id}/modifiers`, { modifier_group_ids: [] })
    assert.deepEqual(cleared.body.data, [])
  })

  it('pages through groups when the total is an exact multiple of the page size', async () => {
    const fresh = clientFor(app.api, (await createMerchant(app)).token)
    for (let i = 0; i < 4; i++) assert.equal((await fresh.post('/api/v1/modifiers', { name: `G${i}` })).status, 201)
    const first = await fresh.get('/api/v1/modifiers?limit=2')
    assert.equal(first.body.data.length, 2)
    assert.equal(first.body.pagination.hasMore, true)
    const second = await fresh.get(`/api/v1/modifiers?limit=2&cursor=${first.body.pagination.nextCursor}`)
    assert.deepEqual(
      second.body.data.map((g: { name: string }) => g.name),
      ['G2', 'G3'],
    )
    assert.deepEqual(second.body.pagination, { nextCursor: null, hasMore: false })
  })

  it('hides groups, options and attachments of another org behind 404s', async () => {
    const g = await group({ name: 'Secret', options: [{ name: 'S' }] })
    const optionId = g.options[0].id
    const product = (await api.post('/api/v1/products', { name: 'Mocha', sku: 'MOC' })).body.data
    assert.equal((await other.get(`/api/v1/modifiers/${g.id}`)).status, 404)
    assert.equal((await other.patch(`/api/v1/modifiers/${g.id}`, { name: 'X' })).status, 404)
    assert.equal((await other.delete(`/api/v1/modifiers/${g.id}`)).status, 404)
    assert.equal((await other.post(`/api/v1/modifiers/${g.id}/options`, { name: 'X' })).status, 404)
    assert.equal((await other.patch(`/api/v1/modifiers/${g.id}/options/${optionId}`, { name: 'X' })).status, 404)
    assert.equal((await other.delete(`/api/v1/modifiers/${g.id}/options/${optionId}`)).status, 404)
    assert.equal((await other.get(`/api/v1/products/${product.id}/modifiers`)).status, 404)
    assert.equal((await other.put(`/api/v1/products/${product.id}/modifiers`, { modifier_group_ids: [] })).status, 404)
    const theirProduct = (await other.post('/api/v1/products', { name: 'Theirs', sku: 'THEIRS' })).body.data
    const borrow = await other.put(`/api/v1/products/${theirProduct.id}/modifiers`, { modifier_group_ids: [g.id] })
    assert.equal(borrow.status, 422)
    assert.equal((await other.get('/api/v1/modifiers')).body.data.length, 0)
  })
})
