import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { gunzipSync } from 'node:zlib'
import { clientFor, loginAs, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'

describe('the catalog a till carries (GET /sync/catalog)', () => {
  let app: TestApp
  let shop: Shop
  let till: ReturnType<typeof clientFor>
  let tillToken: string
  let deviceToken: string
  let deviceId: string

  before(async () => {
    app = await startTestApp()
    shop = await openShop(app)
    const register = await shop.api.post('/api/v1/registers', { location_id: shop.locationId, name: 'Front' })
    assert.equal(register.status, 201, JSON.stringify(register.body))
    const code = (await shop.api.post(`/api/v1/registers/${register.body.data.id}/pairing`)).body.data.code
    const paired = (await clientFor(app.api).post('/api/v1/devices/pair', { code })).body.data
    deviceToken = paired.device_token
    deviceId = paired.device_id
    const token = await clientFor(app.api).post('/api/v1/devices/token', { device_token: deviceToken })
    assert.equal(token.status, 200, JSON.stringify(token.body))
    assert.equal(token.body.data.scope, 'till:sync')
    tillToken = token.body.data.access_token
    till = clientFor(app.api, tillToken)
  })
  after(() => app.close())

  const snapshot = (query = '', headers: Record<string, string> = {}) =>
    app.api.inject({
      method: 'GET',
      url: `/api/v1/sync/catalog${query}`,
      headers: { authorization: `Bearer ${tillToken}`, ...headers },
    })

  it('answers the whole catalog of the till’s location, with what it needs to sell and no PIN hash', async () => {
    await shop.api.patch('/api/v1/settings', { tips: { enabled: true, percentages: [10], base: 'before_tax' } })
    const latte = await shop.product(4.5, { name: 'Latte' })
    const milk = await shop.api.post('/api/v1/modifiers', {
      name: 'Milk',
      options: [{ name: 'Oat', price_adjustment: 0.8 }],
    })
    await shop.api.put(`/api/v1/products/${latte}/modifiers`, { modifier_group_ids: [milk.body.data.id] })
    await shop.api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    await shop.api.post('/api/v1/campaigns', {
      name: 'Happy hour',
      status: 'scheduled',
      rules: [{ type: 'percentage', percent: 10 }],
    })
    await shop.api.put(`/api/v1/locations/${shop.locationId}/sold-out/${latte}`)

    const res = await snapshot()
    assert.equal(res.statusCode, 200, res.body)
    const data = res.json().data
    assert.equal(data.full, true)
    assert.equal(data.location_id, shop.locationId)
    assert.match(data.version, /^\d+$/)
    const product = data.products.find((p: { id: string }) => p.id === latte)
    assert.deepEqual(product.modifier_group_ids, [milk.body.data.id])
    assert.equal(data.modifier_groups[0].options[0].name, 'Oat')
    assert.equal(data.tax_rates[0].rate, 15)
    assert.deepEqual(
      data.campaigns.map((c: { name: string }) => c.name),
      ['Happy hour'],
    )
    assert.deepEqual(data.payment_methods, ['card', 'cash', 'gift_card'])
    assert.deepEqual(
      data.sold_out.map((s: { item_id: string }) => s.item_id),
      [latte],
    )
    assert.equal(data.settings.tips.enabled, true)
    assert.ok(data.staff.some((s: { id: string }) => s.id === shop.merchant.userId))
    assert.ok(!res.body.includes('pin_hash') && !res.body.includes('argon2'))
    for (const kind of Object.keys(data.deleted)) assert.deepEqual(data.deleted[kind], [])
  })

  it('answers only what changed since a version, deletions included, and 304 when nothing did', async () => {
    const scone = await shop.product(3, { name: 'Scone' })
    const muffin = await shop.product(3.5, { name: 'Muffin' })
    const group = (await shop.api.post('/api/v1/modifiers', { name: 'Sauce', options: [{ name: 'Jam' }] })).body.data
    const first = await snapshot()
    const { version } = first.json().data
    const etag = first.headers.etag as string
    assert.ok(etag)
    assert.equal((await snapshot('', { 'if-none-match': etag })).statusCode, 304)

    assert.equal((await shop.api.patch(`/api/v1/products/${scone}`, { base_price: 3.2 })).status, 200)
    // A product is archived (it stays for the orders that name it); a modifier group is deleted.
    assert.equal((await shop.api.delete(`/api/v1/products/${muffin}`)).status, 200)
    assert.equal((await shop.api.delete(`/api/v1/modifiers/${group.id}`)).status, 204)
    const delta = await snapshot(`?since=${version}`, { 'if-none-match': etag })
    assert.equal(delta.statusCode, 200)
    const changed = delta.json().data
    assert.equal(changed.full, false)
    // A delta may repeat rows written while an older transaction ran elsewhere (docs/sync.md), never miss one.
    const sent = (id: string) => changed.products.find((p: { id: string }) => p.id === id)
    assert.deepEqual([sent(scone)?.base_price, sent(scone)?.is_active], [3.2, true])
    assert.deepEqual([sent(muffin)?.base_price, sent(muffin)?.is_active], [3.5, false])
    assert.deepEqual(changed.deleted.modifier_groups, [group.id])
    assert.ok(!changed.modifier_groups.some((g: { id: string }) => g.id === group.id))

    // Caught up: the same question again says nothing new.
    const again = await snapshot(`?since=${changed.version}`)
    const quiet = await snapshot(`?since=${changed.version}`, { 'if-none-match': again.headers.etag as string })
    assert.equal(quiet.statusCode, 304)
  })

  it('sends a variant, a price list entry or an option changed as its own row or with its parent', async () => {
    const tea = await shop.product(3, { name: 'Tea' })
    const { version } = (await snapshot()).json().data
    const pot = await shop.api.post(`/api/v1/products/${tea}/variants`, { name: 'Pot', sku: `pot-${Date.now()}` })
    const list = await shop.api.post('/api/v1/price-lists', {
      name: 'Happy hour',
      prices: [{ product_id: tea, price: 2.5 }],
    })
    assert.equal(list.status, 201, JSON.stringify(list.body))
    const delta = (await snapshot(`?since=${version}`)).json().data
    assert.ok(delta.variants.some((v: { id: string }) => v.id === pot.body.data.id))
    const sentList = delta.price_lists.find((l: { id: string }) => l.id === list.body.data.id)
    assert.equal(sentList.prices.length, 1)
    // An option added to a group sends the group again, with it.
    const group = (await shop.api.post('/api/v1/modifiers', { name: 'Size', options: [{ name: 'Small' }] })).body.data
    const before = (await snapshot()).json().data.version
    await shop.api.post(`/api/v1/modifiers/${group.id}/options`, { name: 'Large', price_adjustment: 1 })
    const grown = (await snapshot(`?since=${before}`)).json().data.modifier_groups
    assert.deepEqual(
      grown.find((g: { id: string }) => g.id === group.id).options.map((o: { name: string }) => o.name),
      ['Small', 'Large'],
    )
  })

  it('compresses a catalog on request', async () => {
    const plain = await snapshot()
    const zipped = await snapshot('', { 'accept-encoding': 'gzip' })
    assert.equal(zipped.headers['content-encoding'], 'gzip')
    const unzipped = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))
    assert.deepEqual(
      unzipped.data.products.map((p: { id: string }) => p.id),
      plain.json().data.products.map((p: { id: string }) => p.id),
    )
    assert.ok(zipped.rawPayload.length < plain.rawPayload.length)
  })

  it('is for a paired till’s own token: staff, owners and apps are refused, and unpairing ends it', async () => {
    const staff = await loginAs(app, shop.merchant.orgId, 'staff')
    assert.equal((await staff.api.get('/api/v1/sync/catalog')).status, 403)
    assert.equal((await shop.api.get(`/api/v1/sync/catalog?location_id=${shop.locationId}`)).status, 403)
    assert.equal((await clientFor(app.api).post('/api/v1/devices/token', { device_token: 'otd_nope' })).status, 401)
    assert.equal((await till.get('/api/v1/sync/catalog')).status, 200)
    assert.equal((await shop.api.delete(`/api/v1/devices/${deviceId}`)).status, 204)
    assert.equal((await till.get('/api/v1/sync/catalog')).status, 401)
    assert.equal((await clientFor(app.api).post('/api/v1/devices/token', { device_token: deviceToken })).status, 401)
  })
})
