import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { AppError } from '../../../src/platform/errors/app-error.ts'
import type { RequestContext } from '../../../src/platform/http/context.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, startTestApp, type TestApp } from '../../support/harness.ts'

type Api = ReturnType<typeof clientFor>

/** quote() through the real services, with the catalog set up over REST. */
describe('catalog pricing: quote()', () => {
  let app: TestApp
  let api: Api
  let ctx: RequestContext
  const quote = (...args: Parameters<TestApp['services']['catalog']['pricing']['quote']>) =>
    app.services.catalog.pricing.quote(...args)
  const post = async (path: string, body: object) => {
    const res = await api.post(`/api/v1${path}`, body)
    assert.equal(res.status, 201, `${path}: ${JSON.stringify(res.body)}`)
    return res.body.data
  }
  const product = (name: string, sku: string, base_price: number, extra: object = {}) =>
    post('/products', { name, sku, base_price, ...extra })

  before(async () => {
    app = await startTestApp()
    const merchant = await createMerchant(app)
    api = clientFor(app.api, merchant.token)
    ctx = systemContext(app.runtime.database, merchant.orgId, ['catalog:read'])
  })
  after(() => app.close())

  it('prices a plain product and its variants from their own prices', async () => {
    const tee = await product('Tee', 'Q-TEE', 20)
    const large = await post(`/products/${tee.id}/variants`, { name: 'Large', sku: 'Q-TEE-L', price: 22.5 })
    const small = await post(`/products/${tee.id}/variants`, { name: 'Small', sku: 'Q-TEE-S' })
    const [plain, l, s] = await quote(ctx, [
      { productId: tee.id, quantity: 1 },
      { productId: tee.id, variantId: large.id, quantity: 2 },
      { productId: tee.id, variantId: small.id, quantity: 1 },
    ])
    assert.deepEqual(plain, {
      productId: tee.id,
      variantId: null,
      quantity: 1,
      name: 'Tee',
      sku: 'Q-TEE',
      categoryId: null,
      basePrice: 2000n,
      unitPrice: 2000n,
      priceListId: null,
      markdownId: null,
      tracked: true,
      soldOut: false,
      modifiers: [],
    })
    assert.equal(l.basePrice, 2250n)
    assert.equal(l.sku, 'Q-TEE-L')
    assert.equal(l.name, 'Tee (Large)')
    assert.equal(l.quantity, 2)
    assert.equal(s.basePrice, 2000n)
  })

  it('refuses unknown or archived products, foreign variants and bad quantities, naming the line', async () => {
    const a = await product('A', 'Q-A', 1)
    const b = await product('B', 'Q-B', 1)
    const bVariant = await post(`/products/${b.id}/variants`, { name: 'V', sku: 'Q-B-V' })
    const archived = await product('Gone', 'Q-GONE', 1)
    await api.delete(`/api/v1/products/${archived.id}`)
    const field = async (lines: Parameters<typeof quote>[1]) => {
      const error: AppError = await quote(ctx, lines).then(
        () => assert.fail('expected a 422'),
        (e) => e,
      )
      assert.equal(error.status, 422)
      return error.errors?.[0].field
    }
    assert.equal(
      await field([
        { productId: a.id, quantity: 1 },
        { productId: 'prod_nope', quantity: 1 },
      ]),
      'lines.1.product_id',
    )
    assert.equal(await field([{ productId: archived.id, quantity: 1 }]), 'lines.0.product_id')
    assert.equal(await field([{ productId: a.id, variantId: bVariant.id, quantity: 1 }]), 'lines.0.variant_id')
    assert.equal(await field([{ productId: a.id, quantity: 0 }]), 'lines.0.quantity')
    assert.equal(await field([{ productId: a.id, quantity: 1.5 }]), 'lines.0.quantity')
  })

  it('applies price lists: location-specific beats org-wide, then the lowest price, within the window', async () => {
    const coffee = await product('Coffee', 'Q-COF', 4)
    const large = await post(`/products/${coffee.id}/variants`, { name: 'Large', sku: 'Q-COF-L', price: 5 })
    const wide = await post('/price-lists', { name: 'Wide', prices: [{ product_id: coffee.id, price: 3.5 }] })
    const cheaper = await post('/price-lists', {
      name: 'Cheaper',
      prices: [
        { product_id: coffee.id, price: 3.2 },
        { product_id: coffee.id, variant_id: large.id, price: 3 },
      ],
    })
    const local = await post('/price-lists', {
      name: 'Airport',
      location_id: 'loc_airport',
      prices: [{ product_id: coffee.id, price: 4.8 }],
    })
    await post('/price-lists', { name: 'Off', is_active: false, prices: [{ product_id: coffee.id, price: 0.5 }] })
    const future = await post('/price-lists', {
      name: 'Next year',
      starts_at: '2031-01-01T00:00:00.000Z',
      ends_at: '2031-02-01T00:00:00.000Z',
      prices: [{ product_id: coffee.id, price: 1 }],
    })

    const [now] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }])
    assert.equal(now.priceListId, cheaper.id)
    assert.equal(now.basePrice, 400n)
    assert.equal(now.unitPrice, 320n)

    const [atAirport] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }], { locationId: 'loc_airport' })
    assert.equal(atAirport.priceListId, local.id)
    assert.equal(atAirport.unitPrice, 480n)
    const [elsewhere] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }], { locationId: 'loc_city' })
    assert.equal(elsewhere.priceListId, cheaper.id)

    // A variant's own entry in a list (3.00) beats that list's product entry (3.20); the local list has none, so
    // it prices the variant with its product entry and still wins at its location.
    const [variant] = await quote(ctx, [{ productId: coffee.id, variantId: large.id, quantity: 1 }])
    assert.equal(variant.priceListId, cheaper.id)
    assert.equal(variant.basePrice, 500n)
    assert.equal(variant.unitPrice, 300n)
    const [variantAirport] = await quote(ctx, [{ productId: coffee.id, variantId: large.id, quantity: 1 }], {
      locationId: 'loc_airport',
    })
    assert.equal(variantAirport.unitPrice, 480n)

    const [inWindow] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }], {
      at: new Date('2031-01-15T00:00:00Z'),
    })
    assert.equal(inWindow.priceListId, future.id)
    assert.equal(inWindow.unitPrice, 100n)
    const [atEnd] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }], { at: new Date('2031-02-01T00:00:00Z') })
    assert.equal(atEnd.priceListId, cheaper.id, 'ends_at is exclusive')

    assert.equal((await api.patch(`/api/v1/price-lists/${cheaper.id}`, { is_active: false })).status, 200)
    const [afterDeactivate] = await quote(ctx, [{ productId: coffee.id, quantity: 1 }])
    assert.equal(afterDeactivate.priceListId, wide.id)
    assert.equal(afterDeactivate.unitPrice, 350n)
  })

  it('applies the largest active markdown after the price list, rounding percentages half-up and never below zero', async () => {
    const drinks = await post('/categories', { name: 'Q drinks' })
    const hot = await post('/categories', { name: 'Q hot', parent_id: drinks.id })
    const tea = await product('Tea', 'Q-TEA', 1, { category_id: hot.id })
    const pct = await post('/markdowns', {
      name: '12.5% drinks',
      kind: 'percentage',
      value: 12.5,
      category_id: drinks.id,
    })
    const [halfUp] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(halfUp.markdownId, pct.id, 'a markdown on a parent category reaches its subcategories')
    assert.equal(halfUp.unitPrice, 87n, '12.5 cents off rounds half-up to 13')
    assert.equal(halfUp.categoryId, hot.id)

    const amount = await post('/markdowns', { name: '20c off tea', kind: 'amount', value: 0.2, product_ids: [tea.id] })
    const [best] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(best.markdownId, amount.id)
    assert.equal(best.unitPrice, 80n)

    const list = await post('/price-lists', { name: 'Tea list', prices: [{ product_id: tea.id, price: 2 }] })
    const [afterList] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(afterList.priceListId, list.id)
    assert.equal(afterList.basePrice, 100n)
    assert.equal(afterList.markdownId, pct.id, 'on 2.00, 12.5% (25c) beats 20c')
    assert.equal(afterList.unitPrice, 175n)

    const huge = await post('/markdowns', { name: 'Free', kind: 'amount', value: 50, product_ids: [tea.id] })
    const [free] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(free.markdownId, huge.id)
    assert.equal(free.unitPrice, 0n)

    await api.patch(`/api/v1/markdowns/${huge.id}`, { starts_at: '2031-01-01T00:00:00Z' })
    const [notYet] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(notYet.markdownId, pct.id)
    const [later] = await quote(ctx, [{ productId: tea.id, quantity: 1 }], { at: new Date('2031-06-01T00:00:00Z') })
    assert.equal(later.markdownId, huge.id)
    await api.patch(`/api/v1/markdowns/${pct.id}`, { is_active: false })
    const [inactive] = await quote(ctx, [{ productId: tea.id, quantity: 1 }])
    assert.equal(inactive.markdownId, amount.id)
  })

  it("enforces modifier groups' min, max and required rules and applies defaults when no choice is given", async () => {
    const latte = await product('Latte', 'Q-LAT', 5)
    const milk = await post('/modifiers', {
      name: 'Milk',
      required: true,
      max_selections: 1,
      options: [
        { name: 'Whole', is_default: true },
        { name: 'Oat', price_adjustment: 0.8 },
      ],
    })
    const extras = await post('/modifiers', {
      name: 'Extras',
      min_selections: 0,
      max_selections: 2,
      options: [
        { name: 'Shot', price_adjustment: 0.7 },
        { name: 'Syrup', price_adjustment: 0.5 },
        { name: 'Cream', price_adjustment: 0.6 },
      ],
    })
    const unattached = await post('/modifiers', { name: 'Cake add-on', options: [{ name: 'Candle' }] })
    assert.equal(
      (await api.put(`/api/v1/products/${latte.id}/modifiers`, { modifier_group_ids: [milk.id, extras.id] })).status,
      200,
    )
    const [whole, oat] = milk.options
    const [shot, syrup, cream] = extras.options

    const [defaults] = await quote(ctx, [{ productId: latte.id, quantity: 1 }])
    assert.deepEqual(defaults.modifiers, [{ id: whole.id, groupId: milk.id, name: 'Whole', priceAdjustment: 0n }])

    const [chosen] = await quote(ctx, [
      { productId: latte.id, quantity: 1, modifierOptionIds: [oat.id, shot.id, syrup.id] },
    ])
    assert.deepEqual(
      chosen.modifiers.map((m) => [m.name, m.priceAdjustment]),
      [
        ['Oat', 80n],
        ['Shot', 70n],
        ['Syrup', 50n],
      ],
    )
    assert.equal(chosen.unitPrice, 500n, 'modifiers are listed apart from the unit price')

    const refused = async (ids: string[], code: string) => {
      const error: AppError = await quote(ctx, [{ productId: latte.id, quantity: 1, modifierOptionIds: ids }]).then(
        () => assert.fail('expected a 422'),
        (e) => e,
      )
      assert.equal(error.status, 422)
      assert.equal(error.errors?.[0].field, 'lines.0.modifiers')
      assert.equal(error.errors?.[0].code, code)
    }
    await refused([], 'too_few_selections')
    await refused([whole.id, oat.id], 'too_many_selections')
    await refused([oat.id, shot.id, syrup.id, cream.id], 'too_many_selections')
    await refused([oat.id, unattached.options[0].id], 'unknown_option')
    await refused([oat.id, oat.id], 'duplicate')

    // A product without groups takes no options at all.
    const plain = await product('Water', 'Q-WAT', 2)
    const error: AppError = await quote(ctx, [
      { productId: plain.id, quantity: 1, modifierOptionIds: [shot.id] },
    ]).catch((e) => e)
    assert.equal(error.errors?.[0].field, 'lines.0.modifiers')
  })

  it("joins the caller's open transaction, seeing its uncommitted writes", async () => {
    const quoted = await ctx.db.tx(async () => {
      const fresh = await app.services.catalog.products.create(ctx, { name: 'In tx', sku: 'Q-TX', base_price: 9.99 })
      return quote(ctx, [{ productId: fresh.id, quantity: 3 }])
    })
    assert.equal(quoted[0].unitPrice, 999n)
  })
})
