import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { startSecondInstance } from '../../support/shared-db.ts'

const LIST = '{ products(limit: 50) { id name basePrice category { name } } }'

/** A GraphQL POST through the real app, answering status, headers and the parsed body. */
async function graphql(app: TestApp, token: string, query: string, variables?: Record<string, unknown>) {
  const res = await app.api.inject({
    method: 'POST',
    url: '/catalog/graphql',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ query, variables }),
  })
  return { status: res.statusCode, headers: res.headers, body: res.json() }
}

describe('the catalog response cache', () => {
  let app: TestApp
  let merchant: Merchant
  /** Answers are cached with Redis, or by the sole instance of a database; otherwise nothing is cached. */
  let caching: boolean

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    caching = app.api.catalogCache !== null
  })
  after(() => app.close())

  it('caches only where every instance hears of every write: with Redis, or as the sole instance', () => {
    assert.equal(caching, app.runtime.soleInstance || app.runtime.redis !== undefined)
  })

  it('serves a repeated list from the cache and shows a create, an update and an archive on the very next read', async () => {
    const api = clientFor(app.api, merchant.token)
    const first = await api.get('/api/v1/products?limit=10')
    assert.equal(first.status, 200)
    assert.equal(first.body.data.length, 0)
    const again = await api.get('/api/v1/products?limit=10')
    assert.deepEqual(again.body, first.body)
    if (caching) {
      assert.equal(first.headers['x-cache'], 'miss')
      assert.equal(again.headers['x-cache'], 'hit')
    }

    const created = await api.post('/api/v1/products', { name: 'Flat white', sku: 'FW-1', base_price: 4.5 })
    assert.equal(created.status, 201)
    const id = created.body.data.id
    const listed = await api.get('/api/v1/products?limit=10')
    assert.deepEqual(
      listed.body.data.map((p: { id: string }) => p.id),
      [id],
    )

    assert.equal((await api.get(`/api/v1/products/${id}`)).body.data.name, 'Flat white')
    const patched = await api.patch(`/api/v1/products/${id}`, { name: 'Long black', version: 1 })
    assert.equal(patched.status, 200)
    assert.equal((await api.get(`/api/v1/products/${id}`)).body.data.name, 'Long black')
    assert.equal((await api.get('/api/v1/products?limit=10')).body.data[0].name, 'Long black')

    assert.equal((await api.delete(`/api/v1/products/${id}`)).status, 200)
    assert.equal((await api.get(`/api/v1/products/${id}`)).body.data.is_active, false)
    assert.equal((await api.get('/api/v1/products?limit=10&is_active=true')).body.data.length, 0)
  })

  it('treats the same query parameters in another order as the same answer', async () => {
    const api = clientFor(app.api, merchant.token)
    const a = await api.get('/api/v1/products?limit=3&is_active=false')
    const b = await api.get('/api/v1/products?is_active=false&limit=3')
    assert.equal(a.status, 200)
    assert.deepEqual(b.body, a.body)
    if (caching) assert.equal(b.headers['x-cache'], 'hit')
  })

  /**
   * A merchant whose bucket refills one request a minute, so the counts a test reads do not move while it runs
   * (an org's own figures, as an Enterprise plan has them).
   */
  async function slowBucketMerchant(burst: number): Promise<Merchant> {
    const made = await createMerchant(app)
    await app.runtime.database.transaction(made.orgId, (q) =>
      q.query("UPDATE orgs SET plan = 'enterprise', rate_limit_per_minute = 1, rate_limit_burst = $2 WHERE id = $1", [
        made.orgId,
        burst,
      ]),
    )
    return made
  }

  it('keeps X-Request-Id and the rate-limit headers per request on a cached answer', async () => {
    const api = clientFor(app.api, (await slowBucketMerchant(10)).token)
    const first = await api.get('/api/v1/products?limit=2')
    const one = await api.get('/api/v1/products?limit=2', { 'x-request-id': 'req-one' })
    const two = await api.get('/api/v1/products?limit=2', { 'x-request-id': 'req-two' })
    assert.equal(one.headers['x-request-id'], 'req-one')
    assert.equal(two.headers['x-request-id'], 'req-two')
    // Each answer counts its own request: a replayed header would not move.
    assert.deepEqual(
      [first, one, two].map((res) => res.headers['x-ratelimit-remaining']),
      ['9', '8', '7'],
    )
  })

  it('shows a category rename in a cached GraphQL list with nested categories at once', async () => {
    const api = clientFor(app.api, merchant.token)
    const category = await api.post('/api/v1/categories', { name: 'Coffee' })
    assert.equal(category.status, 201)
    const product = await api.post('/api/v1/products', {
      name: 'Mocha',
      sku: 'MO-1',
      base_price: 5,
      category_id: category.body.data.id,
    })
    assert.equal(product.status, 201)

    const before = await graphql(app, merchant.token, LIST)
    assert.equal(before.body.errors, undefined)
    const mocha = before.body.data.products.find((p: { id: string }) => p.id === product.body.data.id)
    assert.equal(mocha.category.name, 'Coffee')
    const cached = await graphql(app, merchant.token, LIST)
    assert.deepEqual(cached.body, before.body)
    if (caching) assert.equal(cached.headers['x-cache'], 'hit')

    assert.equal((await api.patch(`/api/v1/categories/${category.body.data.id}`, { name: 'Espresso bar' })).status, 200)
    const after = await graphql(app, merchant.token, LIST)
    const renamed = after.body.data.products.find((p: { id: string }) => p.id === product.body.data.id)
    assert.equal(renamed.category.name, 'Espresso bar')
  })

  it('never replays a mutation from the cache, and shows its write on the next query', async () => {
    const create = 'mutation { createProduct(input: {name: "Chai", sku: "CH-1", basePrice: 4}) { id name } }'
    const first = await graphql(app, merchant.token, create)
    assert.equal(first.body.errors, undefined)
    const second = await graphql(app, merchant.token, create)
    assert.equal(second.body.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', "the second run met the first one's SKU")
    assert.equal(second.headers['x-cache'], undefined)

    const listed = await graphql(app, merchant.token, LIST)
    assert.ok(listed.body.data.products.some((p: { id: string }) => p.id === first.body.data.createProduct.id))
    const renamed = await graphql(
      app,
      merchant.token,
      `mutation { updateProduct(id: "${first.body.data.createProduct.id}", input: {name: "Dirty chai"}) { name } }`,
    )
    assert.equal(renamed.body.errors, undefined)
    const relisted = await graphql(app, merchant.token, LIST)
    assert.equal(
      relisted.body.data.products.find((p: { id: string }) => p.id === first.body.data.createProduct.id).name,
      'Dirty chai',
    )
  })

  it('keys GraphQL answers by variables too', async () => {
    const query = 'query One($id: ID!) { product(id: $id) { id name } }'
    const listed = (await graphql(app, merchant.token, LIST)).body.data.products
    assert.ok(listed.length >= 2)
    const a = await graphql(app, merchant.token, query, { id: listed[0].id })
    const b = await graphql(app, merchant.token, query, { id: listed[1].id })
    assert.equal(a.body.data.product.id, listed[0].id)
    assert.equal(b.body.data.product.id, listed[1].id)
  })

  it('never answers another org from the cache', async () => {
    const mine = clientFor(app.api, merchant.token)
    const theirs = await createMerchant(app)
    const other = clientFor(app.api, theirs.token)
    const list = await mine.get('/api/v1/products?limit=20')
    assert.ok(list.body.data.length > 0)
    await mine.get('/api/v1/products?limit=20')
    const id = list.body.data[0].id
    await mine.get(`/api/v1/products/${id}`)

    const otherList = await other.get('/api/v1/products?limit=20')
    assert.equal(otherList.status, 200)
    assert.deepEqual(otherList.body.data, [])
    assert.equal((await other.get(`/api/v1/products/${id}`)).status, 404)
    await graphql(app, merchant.token, LIST)
    const otherGraphql = await graphql(app, theirs.token, LIST)
    assert.deepEqual(otherGraphql.body.data.products, [])
  })

  it('answers 401 to a revoked token even where the answer is cached', async () => {
    const session = await createMerchant(app)
    const api = clientFor(app.api, session.token)
    assert.equal((await api.get('/api/v1/products?limit=5')).status, 200)
    assert.equal((await api.get('/api/v1/products?limit=5')).status, 200)
    await graphql(app, session.token, LIST)
    await graphql(app, session.token, LIST)

    assert.equal((await api.post('/api/v1/auth/logout')).status, 204)
    const refused = await api.get('/api/v1/products?limit=5')
    assert.equal(refused.status, 401)
    assert.equal(refused.headers['x-cache'], undefined)
    const refusedGraphql = await graphql(app, session.token, LIST)
    assert.equal(refusedGraphql.body.errors[0].extensions.code, 'UNAUTHENTICATED')
    assert.equal(refusedGraphql.body.data?.products ?? null, null)
  })

  it('counts cached answers and GraphQL queries against the org rate limit, then refuses with 429', async () => {
    const limited = await slowBucketMerchant(150)
    const api = clientFor(app.api, limited.token)
    const first = await api.get('/api/v1/products?limit=5')
    const cached = await api.get('/api/v1/products?limit=5')
    assert.equal(first.headers['x-ratelimit-remaining'], '149')
    assert.equal(cached.headers['x-ratelimit-remaining'], '148')
    const viaGraphql = await graphql(app, limited.token, LIST)
    assert.equal(viaGraphql.headers['x-ratelimit-limit'], '1')
    assert.equal(viaGraphql.headers['x-ratelimit-remaining'], '147', 'GraphQL takes from the same bucket')

    let refused: Awaited<ReturnType<typeof graphql>> | undefined
    for (let i = 0; i < 400 && !refused; i++) {
      const res = await graphql(app, limited.token, LIST)
      if (res.status === 429) refused = res
    }
    assert.ok(refused, 'no 429 within 400 GraphQL requests')
    assert.equal(refused.headers['x-ratelimit-remaining'], '0')
    assert.equal(refused.body.errors[0].extensions.code, 'RATE_LIMITED')
    assert.ok(Number(refused.headers['retry-after']) >= 1)
    assert.equal((await api.get('/api/v1/products?limit=5')).status, 429, 'REST shares the exhausted bucket')
  })
})

describe('the catalog response cache across two instances', () => {
  let first: TestApp
  let second: TestApp
  let merchant: Merchant

  before(async () => {
    first = await startTestApp()
    second = await startSecondInstance(first)
    merchant = await createMerchant(first)
  })
  after(async () => {
    await second.close()
    await first.close()
  })

  it("shows each instance's writes to the other on the very next read, over REST and GraphQL", async () => {
    const a = clientFor(first.api, merchant.token)
    const b = clientFor(second.api, merchant.token)
    assert.deepEqual((await a.get('/api/v1/products?limit=10')).body.data, [])
    assert.deepEqual((await a.get('/api/v1/products?limit=10')).body.data, [])
    assert.deepEqual((await graphql(first, merchant.token, LIST)).body.data.products, [])

    const created = await b.post('/api/v1/products', { name: 'Cortado', sku: 'CO-1', base_price: 4 })
    assert.equal(created.status, 201)
    assert.equal((await a.get('/api/v1/products?limit=10')).body.data[0]?.id, created.body.data.id)
    assert.equal((await graphql(first, merchant.token, LIST)).body.data.products[0]?.name, 'Cortado')

    await b.get(`/api/v1/products/${created.body.data.id}`)
    await b.get(`/api/v1/products/${created.body.data.id}`)
    assert.equal((await a.patch(`/api/v1/products/${created.body.data.id}`, { name: 'Piccolo' })).status, 200)
    assert.equal((await b.get(`/api/v1/products/${created.body.data.id}`)).body.data.name, 'Piccolo')
    assert.equal((await graphql(second, merchant.token, LIST)).body.data.products[0]?.name, 'Piccolo')
  })

  it('refuses a token revoked on one instance on the other at once', async () => {
    const session = await createMerchant(first)
    const onSecond = clientFor(second.api, session.token)
    assert.equal((await onSecond.get('/api/v1/products?limit=5')).status, 200)
    assert.equal((await onSecond.get('/api/v1/products?limit=5')).status, 200)
    assert.equal((await clientFor(first.api, session.token).post('/api/v1/auth/logout')).status, 204)
    assert.equal((await onSecond.get('/api/v1/products?limit=5')).status, 401)
  })
})
