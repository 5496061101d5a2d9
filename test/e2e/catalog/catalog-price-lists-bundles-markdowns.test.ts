import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { RequestContext } from '../../../src/platform/http/context.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type TestApp } from '../../support/harness.ts'
import { type Api, appWithTwoMerchants } from '../../support/two-orgs.ts'

describe('catalog price lists, bundles and markdowns', () => {
  let app: TestApp
  let api: Api
  let other: Api
  let coffee: { id: string }
  let tea: { id: string }
  let cake: { id: string }
  let large: { id: string }
  let category: { id: string }
  let ctx: RequestContext
  before(async () => {
    const started = await appWithTwoMerchants()
    ;({ app, api, other } = started)
    ctx = systemContext(app.runtime.database, started.merchant.orgId, ['catalog:read'])
    category = (await api.post('/api/v1/categories', { name: 'Drinks' })).body.data
    coffee = (
      await api.post('/api/v1/products', { name: 'Coffee', sku: 'COF', base_price: 4, category_id: category.id })
    ).body.data
    tea = (await api.post('/api/v1/products', { name: 'Tea', sku: 'TEA', base_price: 3 })).body.data
    cake = (await api.post('/api/v1/products', { name: 'Cake', sku: 'CAKE', base_price: 5 })).body.data
    large = (await api.post(`/api/v1/products/${coffee.id}/variants`, { name: 'Large', sku: 'COF-L', price: 5 })).body
      .data
  })
  after(() => app.close())

  describe('price lists', () => {
    it('creates, reads, lists, updates and deletes a price list with prices, a location and a window', async () => {
      const created = await api.post('/api/v1/price-lists', {
        name: 'Happy hour',
        location_id: 'loc_main',
        starts_at: '2030-01-01T15:00:00.000Z',
        ends_at: '2030-01-01T17:00:00.000Z',
        prices: [
          { product_id: coffee.id, price: 3.5 },
          { product_id: coffee.id, variant_id: large.id, price: 4.25 },
        ],
      })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      const list = created.body.data
      assert.equal(list.location_id, 'loc_main')
      assert.equal(list.starts_at, '2030-01-01T15:00:00.000Z')
      assert.equal(list.currency, 'USD')
      assert.deepEqual(list.prices, [
        { product_id: coffee.id, variant_id: null, price: 3.5 },
        { product_id: coffee.id, variant_id: large.id, price: 4.25 },
      ])
      assert.equal((await api.get(`/api/v1/price-lists/${list.id}`)).body.data.name, 'Happy hour')
      const byLocation = await api.get('/api/v1/price-lists?location_id=loc_main')
      assert.deepEqual(
        byLocation.body.data.map((l: { id: string }) => l.id),
        [list.id],
      )

      const patched = await api.patch(
        `/api/v1/price-lists/${list.id}`,
        { prices: [{ product_id: tea.id, price: 2 }], ends_at: null },
        { 'if-match': '1' },
      )
      assert.equal(patched.status, 200)
      assert.deepEqual(patched.body.data.prices, [{ product_id: tea.id, variant_id: null, price: 2 }])
      assert.equal(patched.body.data.ends_at, null)
      assert.equal(patched.body.data.version, 2)
      const stale = await api.patch(`/api/v1/price-lists/${list.id}`, { name: 'Late' }, { 'if-match': '1' })
      assert.equal(stale.status, 409)

      assert.equal((await api.delete(`/api/v1/price-lists/${list.id}`)).status, 204)
      assert.equal((await api.get(`/api/v1/price-lists/${list.id}`)).status, 404)
    })

    it('refuses bad prices, windows and unknown products with a 422 naming the field, creating nothing', async () => {
      const cases: [object, string][] = [
        [{ name: 'X', prices: [{ product_id: 'prod_nope', price: 1 }] }, 'prices.0.product_id'],
        [{ name: 'X', prices: [{ product_id: tea.id, variant_id: large.id, price: 1 }] }, 'prices.0.variant_id'],
        [{ name: 'X', prices: [{ product_id: tea.id, price: 1.005 }] }, 'prices.0.price'],
        [{ name: 'X', prices: [{ product_id: tea.id, price: -1 }] }, 'prices.0.price'],
        [
          {
            name: 'X',
            prices: [
              { product_id: tea.id, price: 1 },
              { product_id: tea.id, price: 2 },
            ],
          },
          'prices.1',
        ],
        [{ name: 'X', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' }, 'ends_at'],
        [{ name: 'X', starts_at: 'tomorrow' }, 'starts_at'],
        [{ prices: [] }, 'name'],
      ]
      const before = (await api.get('/api/v1/price-lists?limit=200')).body.data.length
      for (const [body, field] of cases) {
        const res = await api.post('/api/v1/price-lists', body)
        assert.equal(res.status, 422, `${JSON.stringify(body)} -> ${res.status}`)
        assert.equal(res.body.errors[0].field, field)
      }
      assert.equal((await api.get('/api/v1/price-lists?limit=200')).body.data.length, before)
    })

    it('replays a POST with the same Idempotency-Key instead of creating a second price list', async () => {
      const body = { name: 'Once', prices: [{ product_id: tea.id, price: 2.5 }] }
      const first = await api.post('/api/v1/price-lists', body, { 'idempotency-key': 'pl-once' })
      const again = await api.post('/api/v1/price-lists', body, { 'idempotency-key': 'pl-once' })
      assert.equal(first.status, 201)
      assert.equal(again.status, 201)
      assert.equal(again.headers['idempotent-replayed'], 'true')
      assert.equal(again.body.data.id, first.body.data.id)
      const named = (await api.get('/api/v1/price-lists?limit=200')).body.data.filter(
        (l: { name: string }) => l.name === 'Once',
      )
      assert.equal(named.length, 1)
      const changed = await api.post(
        '/api/v1/price-lists',
        { ...body, name: 'Twice' },
        { 'idempotency-key': 'pl-once' },
      )
      assert.equal(changed.status, 422)
    })

    it('pages through price lists when the total is an exact multiple of the page size', async () => {
      const fresh = clientFor(app.api, (await createMerchant(app)).token)
      for (let i = 0; i < 4; i++) assert.equal((await fresh.post('/api/v1/price-lists', { name: `L${i}` })).status, 201)
      const first = await fresh.get('/api/v1/price-lists?limit=2')
      const second = await fresh.get(`/api/v1/price-lists?limit=2&cursor=${first.body.pagination.nextCursor}`)
      assert.deepEqual(
        [...first.body.data, ...second.body.data].map((l: { name: string }) => l.name),
        ['L0', 'L1', 'L2', 'L3'],
      )
      assert.deepEqual(second.body.pagination, { nextCursor: null, hasMore: false })
    })

    it('hides price lists of another org behind 404s and refuses their products', async () => {
      const list = (await api.post('/api/v1/price-lists', { name: 'Mine' })).body.data
      assert.equal((await other.get(`/api/v1/price-lists/${list.id}`)).status, 404)
      assert.equal((await other.patch(`/api/v1/price-lists/${list.id}`, { name: 'X' })).status, 404)
      assert.equal((await other.delete(`/api/v1/price-lists/${list.id}`)).status, 404)
      const borrow = await other.post('/api/v1/price-lists', {
        name: 'Theirs',
        prices: [{ product_id: tea.id, price: 1 }],
      })
      assert.equal(borrow.status, 422)
      assert.equal((await other.get('/api/v1/price-lists')).body.data.length, 0)
    })
  })

  describe('bundles', () => {
    it('makes a product a bundle, reads, lists, replaces components and deletes it', async () => {
      const box = (await api.post('/api/v1/products', { name: 'Breakfast box', sku: 'BOX', base_price: 8 })).body.data
      const created = await api.post('/api/v1/bundles', {
        product_id: box.id,
        components: [
          { product_id: coffee.id, variant_id: large.id, quantity: 1 },
          { product_id: cake.id, quantity: 2 },
        ],
      })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      const bundle = created.body.data
      assert.deepEqual(bundle.components, [
        { product_id: coffee.id, variant_id: large.id, quantity: 1 },
        { product_id: cake.id, variant_id: null, quantity: 2 },
      ])
      assert.equal((await api.get(`/api/v1/bundles/${bundle.id}`)).body.data.product_id, box.id)
      const listed = await api.get(`/api/v1/bundles?product_id=${box.id}`)
      assert.deepEqual(
        listed.body.data.map((b: { id: string }) => b.id),
        [bundle.id],
      )

      const patched = await api.patch(
        `/api/v1/bundles/${bundle.id}`,
        { components: [{ product_id: tea.id, quantity: 3 }] },
        { 'if-match': '1' },
      )
      assert.equal(patched.status, 200)
      assert.deepEqual(patched.body.data.components, [{ product_id: tea.id, variant_id: null, quantity: 3 }])
      assert.equal(patched.body.data.version, 2)
      assert.equal(
        (
          await api.patch(
            `/api/v1/bundles/${bundle.id}`,
            { components: [{ product_id: cake.id, quantity: 1 }] },
            { 'if-match': '1' },
          )
        ).status,
        409,
      )

      const components = await app.services.catalog.bundles.componentsOf(ctx, [box.id, tea.id])
      assert.deepEqual(components.get(box.id), [{ productId: tea.id, variantId: null, quantity: 3 }])
      assert.equal(components.has(tea.id), false)

      assert.equal((await api.delete(`/api/v1/bundles/${bundle.id}`)).status, 204)
      assert.equal((await api.get(`/api/v1/bundles/${bundle.id}`)).status, 404)
      assert.equal((await api.get(`/api/v1/products/${box.id}`)).status, 200)
    })

    it('refuses a bundle containing itself, nested bundles, duplicates and a second bundle of one product', async () => {
      const box = (await api.post('/api/v1/products', { name: 'Gift box', sku: 'GIFT', base_price: 20 })).body.data
      const self = await api.post('/api/v1/bundles', {
        product_id: box.id,
        components: [
          { product_id: tea.id, quantity: 1 },
          { product_id: box.id, quantity: 1 },
        ],
      })
      assert.equal(self.status, 422)
      assert.equal(self.body.errors[0].field, 'components.1.product_id')
      assert.equal(self.body.errors[0].code, 'self_reference')

      const ok = await api.post('/api/v1/bundles', {
        product_id: box.id,
        components: [{ product_id: tea.id, quantity: 1 }],
      })
      assert.equal(ok.status, 201)
      const again = await api.post('/api/v1/bundles', {
        product_id: box.id,
        components: [{ product_id: cake.id, quantity: 1 }],
      })
      assert.equal(again.status, 422)
      assert.equal(again.body.errors[0].field, 'product_id')

      const outer = (await api.post('/api/v1/products', { name: 'Hamper', sku: 'HAMPER' })).body.data
      const nested = await api.post('/api/v1/bundles', {
        product_id: outer.id,
        components: [{ product_id: box.id, quantity: 1 }],
      })
      assert.equal(nested.status, 422)
      assert.equal(nested.body.errors[0].field, 'components.0.product_id')
      // A component cannot become a bundle either, so no loop can form through two bundles.
      const loop = await api.post('/api/v1/bundles', {
        product_id: tea.id,
        components: [{ product_id: cake.id, quantity: 1 }],
      })
      assert.equal(loop.status, 422)
      assert.equal(loop.body.errors[0].field, 'product_id')

      const dup = await api.post('/api/v1/bundles', {
        product_id: outer.id,
        components: [
          { product_id: cake.id, quantity: 1 },
          { product_id: cake.id, quantity: 2 },
        ],
      })
      assert.equal(dup.status, 422)
      assert.equal(dup.body.errors[0].field, 'components.1')
      const zero = await api.post('/api/v1/bundles', {
        product_id: outer.id,
        components: [{ product_id: cake.id, quantity: 0 }],
      })
      assert.equal(zero.status, 422)
      assert.equal(zero.body.errors[0].field, 'components.0.quantity')
      const empty = await api.post('/api/v1/bundles', { product_id: outer.id, components: [] })
      assert.equal(empty.status, 422)
      assert.equal(empty.body.errors[0].field, 'components')
      assert.equal((await api.get(`/api/v1/bundles?product_id=${outer.id}`)).body.data.length, 0)
    })

    it('pages through bundles and hides them from another org', async () => {
      const fresh = clientFor(app.api, (await createMerchant(app)).token)
      const part = (await fresh.post('/api/v1/products', { name: 'Part', sku: 'PART' })).body.data
      const ids: string[] = []
      for (let i = 0; i < 4; i++) {
        const p = (await fresh.post('/api/v1/products', { name: `Kit ${i}`, sku: `KIT-${i}` })).body.data
        ids.push(
          (
            await fresh.post('/api/v1/bundles', {
              product_id: p.id,
              components: [{ product_id: part.id, quantity: 1 }],
            })
          ).body.data.id,
        )
      }
      const first = await fresh.get('/api/v1/bundles?limit=2')
      const second = await fresh.get(`/api/v1/bundles?limit=2&cursor=${first.body.pagination.nextCursor}`)
      assert.deepEqual(
        [...first.body.data, ...second.body.data].map((b: { id: string }) => b.id),
        ids,
      )
      assert.deepEqual(second.body.pagination, { nextCursor: null, hasMore: false })

      assert.equal((await api.get(`/api/v1/bundles/${ids[0]}`)).status, 404)
      assert.equal(
        (await api.patch(`/api/v1/bundles/${ids[0]}`, { components: [{ product_id: tea.id, quantity: 1 }] })).status,
        404,
      )
      assert.equal((await api.delete(`/api/v1/bundles/${ids[0]}`)).status, 404)
      const borrow = await api.post('/api/v1/bundles', {
        product_id: part.id,
        components: [{ product_id: tea.id, quantity: 1 }],
      })
      assert.equal(borrow.status, 422)
    })
  })

  describe('markdowns', () => {
    it('creates percentage and amount markdowns, reads, lists, updates and deletes them', async () => {
      const pct = await api.post('/api/v1/markdowns', {
        name: 'Ten off drinks',
        kind: 'percentage',
        value: 12.5,
        category_id: category.id,
      })
      assert.equal(pct.status, 201, JSON.stringify(pct.body))
      assert.equal(pct.body.data.value, 12.5)
      assert.deepEqual(pct.body.data.product_ids, [])
      // Percentages keep four decimals, as tax rates and campaign rules do (markdowns kept two before).
      const fine = await api.post('/api/v1/markdowns', {
        name: 'Fine',
        kind: 'percentage',
        value: 8.875,
        product_ids: [cake.id],
        is_active: false,
      })
      assert.equal(fine.status, 201, JSON.stringify(fine.body))
      assert.equal(fine.body.data.value, 8.875)
      await api.delete(`/api/v1/markdowns/${fine.body.data.id}`)
      const amount = await api.post('/api/v1/markdowns', {
        name: 'Cake clearance',
        kind: 'amount',
        value: 1.5,
        product_ids: [cake.id, cake.id],
        starts_at: '2030-01-01T00:00:00.000Z',
      })
      assert.equal(amount.status, 201)
      assert.deepEqual(amount.body.data.product_ids, [cake.id])
      assert.equal(amount.body.data.starts_at, '2030-01-01T00:00:00.000Z')
      assert.equal((await api.get(`/api/v1/markdowns/${amount.body.data.id}`)).body.data.value, 1.5)
      const byProduct = await api.get(`/api/v1/markdowns?product_id=${cake.id}`)
      assert.deepEqual(
        byProduct.body.data.map((m: { id: string }) => m.id),
        [amount.body.data.id],
      )
      const byCategory = await api.get(`/api/v1/markdowns?category_id=${category.id}`)
      assert.deepEqual(
        byCategory.body.data.map((m: { id: string }) => m.id),
        [pct.body.data.id],
      )

      const switched = await api.patch(
        `/api/v1/markdowns/${pct.body.data.id}`,
        { kind: 'amount', value: 0.5, category_id: null, product_ids: [tea.id] },
        { 'if-match': '1' },
      )
      assert.equal(switched.status, 200, JSON.stringify(switched.body))
      assert.equal(switched.body.data.kind, 'amount')
      assert.equal(switched.body.data.value, 0.5)
      assert.deepEqual(switched.body.data.product_ids, [tea.id])
      assert.equal(
        (await api.patch(`/api/v1/markdowns/${pct.body.data.id}`, { name: 'X' }, { 'if-match': '1' })).status,
        409,
      )

      assert.equal((await api.delete(`/api/v1/markdowns/${pct.body.data.id}`)).status, 204)
      assert.equal((await api.get(`/api/v1/markdowns/${pct.body.data.id}`)).status, 404)
    })

    it('refuses bad markdowns with a 422 naming the field', async () => {
      const cases: [object, string][] = [
        [{ name: 'X', kind: 'percentage', value: 101, product_ids: [tea.id] }, 'value'],
        [{ name: 'X', kind: 'percentage', value: 10.12345, product_ids: [tea.id] }, 'value'],
        [{ name: 'X', kind: 'amount', value: 0.001, product_ids: [tea.id] }, 'value'],
        [{ name: 'X', kind: 'amount', value: 0, product_ids: [tea.id] }, 'value'],
        [{ name: 'X', kind: 'bogus', value: 1, product_ids: [tea.id] }, 'kind'],
        [{ name: 'X', kind: 'amount', value: 1 }, 'product_ids'],
        [{ name: 'X', kind: 'amount', value: 1, product_ids: [tea.id], category_id: category.id }, 'category_id'],
        [{ name: 'X', kind: 'amount', value: 1, product_ids: [tea.id, 'prod_nope'] }, 'product_ids.1'],
        [{ name: 'X', kind: 'amount', value: 1, category_id: 'cat_nope' }, 'category_id'],
        [
          {
            name: 'X',
            kind: 'amount',
            value: 1,
            product_ids: [tea.id],
            starts_at: '2030-01-01T00:00:00Z',
            ends_at: '2030-01-01T00:00:00Z',
          },
          'ends_at',
        ],
      ]
      for (const [body, field] of cases) {
        const res = await api.post('/api/v1/markdowns', body)
        assert.equal(res.status, 422, `${JSON.stringify(body)} -> ${res.status}`)
        assert.equal(res.body.errors[0].field, field, JSON.stringify(res.body.errors))
      }
    })

    it('pages through markdowns and hides them from another org', async () => {
      const fresh = clientFor(app.api, (await createMerchant(app)).token)
      const p = (await fresh.post('/api/v1/products', { name: 'P', sku: 'P' })).body.data
      for (let i = 0; i < 4; i++)
        await fresh.post('/api/v1/markdowns', { name: `M${i}`, kind: 'percentage', value: 5, product_ids: [p.id] })
      const first = await fresh.get('/api/v1/markdowns?limit=2')
      const second = await fresh.get(`/api/v1/markdowns?limit=2&cursor=${first.body.pagination.nextCursor}`)
      assert.deepEqual(
        [...first.body.data, ...second.body.data].map((m: { name: string }) => m.name),
        ['M0', 'M1', 'M2', 'M3'],
      )
      assert.deepEqual(second.body.pagination, { nextCursor: null, hasMore: false })
      const id = first.body.data[0].id
      assert.equal((await api.get(`/api/v1/markdowns/${id}`)).status, 404)
      assert.equal((await api.patch(`/api/v1/markdowns/${id}`, { name: 'X' })).status, 404)
      assert.equal((await api.delete(`/api/v1/markdowns/${id}`)).status, 404)
      assert.equal(
        (await fresh.post('/api/v1/markdowns', { name: 'X', kind: 'amount', value: 1, product_ids: [tea.id] })).status,
        422,
      )
    })
  })

  it('lets catalog:read tokens read but not write, and turns away anonymous callers', async () => {
    const paths = [
      '/api/v1/categories',
      '/api/v1/modifiers',
      '/api/v1/price-lists',
      '/api/v1/bundles',
      '/api/v1/markdowns',
    ]
    const anonymous = clientFor(app.api)
    for (const path of paths) assert.equal((await anonymous.get(path)).status, 401)

    // Staff tokens carry catalog:read only.
    const email = `staff-${Date.now()}@example.test`
    await app.runtime.database.transaction(ctx.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: ctx.orgId, email, role: 'staff', password: 'staff-password-1' }),
    )
    const login = await anonymous.post('/api/v1/auth/login', { email, password: 'staff-password-1' })
    const staff = clientFor(app.api, login.body.data.accessToken)
    for (const path of paths) {
      assert.equal((await staff.get(path)).status, 200, path)
      const write = await staff.post(path, { name: 'Nope' })
      assert.equal(write.status, 403, path)
      assert.match(String(write.headers['www-authenticate']), /insufficient_scope/)
    }
    assert.equal((await staff.put(`/api/v1/products/${tea.id}/modifiers`, { modifier_group_ids: [] })).status, 403)
    assert.equal((await staff.post(`/api/v1/products/${tea.id}/variants`, { name: 'X', sku: 'X' })).status, 403)
  })
})
