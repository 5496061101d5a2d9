import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { getIntrospectionQuery } from 'graphql'
import { buildApp } from '../../../src/app.ts'
import { countCatalogQueries, type GraphqlAnswer, graphqlClient, listen } from '../../support/graphql.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('GraphQL catalog API: credentials, org isolation, input errors and limits', () => {
  let app: TestApp
  let base: string
  let alice: Merchant
  let bob: Merchant
  let asAlice: (query: string, variables?: Record<string, unknown>) => Promise<GraphqlAnswer>
  let asBob: (query: string, variables?: Record<string, unknown>) => Promise<GraphqlAnswer>
  let aliceProduct: { id: string }
  let aliceCategory: { id: string }

  before(async () => {
    app = await startTestApp()
    base = await listen(app)
    alice = await createMerchant(app)
    bob = await createMerchant(app)
    asAlice = graphqlClient(`${base}/catalog/graphql`, alice.token)
    asBob = graphqlClient(`${base}/catalog/graphql`, bob.token)
    const rest = clientFor(app.api, alice.token)
    aliceCategory = (await rest.post('/api/v1/categories', { name: 'Secret recipes' })).body.data
    aliceProduct = (
      await rest.post('/api/v1/products', {
        name: 'Secret sauce',
        sku: 'SS-1',
        base_price: 2,
        category_id: aliceCategory.id,
      })
    ).body.data
    assert.ok(aliceCategory?.id && aliceProduct?.id)
  })
  after(() => app.close())

  const productCount = async (merchant: Merchant) =>
    (await clientFor(app.api, merchant.token).get('/api/v1/products?limit=200')).body.data.length as number

  it('answers a token without an orgId with exactly "Unauthorized: missing orgId in token"', async () => {
    const token = await app.runtime.accessTokens.sign({
      sub: alice.userId,
      orgId: '',
      scopes: ['catalog:read', 'catalog:write'],
      sid: 'sess_without_org',
      clientId: 'first-party',
      actorKind: 'user',
      userId: alice.userId,
    })
    const answer = await graphqlClient(`${base}/catalog/graphql`, token)('{ products { id } }')
    assert.equal(answer.data.products, null)
    assert.equal(answer.errors?.[0].message, 'Unauthorized: missing orgId in token')
    assert.equal(answer.errors?.[0].extensions?.code, 'UNAUTHENTICATED')
    assert.deepEqual(answer.errors?.[0].path, ['products'])
  })

  it('refuses requests without a token or with a forged one, in the GraphQL envelope', async () => {
    const none = await graphqlClient(`${base}/catalog/graphql`)('{ products { id } }')
    assert.equal(none.errors?.[0].extensions?.code, 'UNAUTHENTICATED')
    assert.deepEqual(none.data, { products: null })
    const [h, p] = alice.token.split('.')
    const forged = await graphqlClient(
      `${base}/graphql`,
      `${h}.${p}.${Buffer.from('x'.repeat(64)).toString('base64url')}`,
    )('mutation { createProduct(input: {name: "x", sku: "forged"}) { id } }')
    assert.equal(forged.errors?.[0].extensions?.code, 'UNAUTHENTICATED')
    assert.equal(await productCount(alice), 1)
  })

  it('stops accepting a token at once after logout', async () => {
    const login = await clientFor(app.api).post('/api/v1/auth/login', { email: alice.email, password: alice.password })
    const token = login.body.data.accessToken
    const client = graphqlClient(`${base}/catalog/graphql`, token)
    assert.equal((await client('{ products { id } }')).errors, undefined)
    assert.equal((await clientFor(app.api, token).post('/api/v1/auth/logout')).status, 204)
    const after = await client('{ products { id } }')
    assert.equal(after.errors?.[0].message, 'Unauthorized: the access token has been revoked')
  })

  it('introspects the schema only with a token, within limits of its own', async () => {
    const query = '{ __schema { queryType { name } mutationType { fields { name } } } }'
    const anonymous = await graphqlClient(`${base}/graphql`)(query)
    assert.equal(anonymous.data, null)
    assert.equal(anonymous.errors?.[0].extensions?.code, 'UNAUTHENTICATED')
    const answer = await graphqlClient(`${base}/graphql`, alice.token)(query)
    assert.equal(answer.errors, undefined)
    assert.deepEqual(
      answer.data.__schema.mutationType.fields.map((f: { name: string }) => f.name),
      ['createProduct', 'updateProduct', 'deleteProduct'],
    )
    // GraphiQL's own introspection query passes; a type reference nested past it does not.
    const full = await graphqlClient(`${base}/graphql`, alice.token)(getIntrospectionQuery())
    assert.equal(full.errors, undefined, JSON.stringify(full.errors))
    const nested = `{ __schema { types { ${'ofType { '.repeat(16)}name${' }'.repeat(16)} } } }`
    const deep = await graphqlClient(`${base}/graphql`, alice.token)(nested)
    assert.equal(deep.errors?.[0].extensions?.code, 'QUERY_TOO_DEEP')
  })

  it('refuses more than 100 aliases in one request', async () => {
    const aliased = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`
    const client = graphqlClient(`${base}/graphql`, alice.token)
    assert.equal((await client(aliased(100))).errors, undefined)
    const refused = await client(aliased(101))
    assert.equal(refused.errors?.[0].extensions?.code, 'QUERY_TOO_MANY_ALIASES')
  })

  it('refuses an orgId argument naming another org with a Forbidden error, not data', async () => {
    for (const query of [
      `{ products(orgId: "${alice.orgId}") { id } }`,
      `{ categories(orgId: "${alice.orgId}") { id } }`,
      `{ modifierGroups(orgId: "${alice.orgId}") { id } }`,
    ]) {
      const answer = await asBob(query)
      const [field] = Object.keys(answer.data)
      assert.equal(answer.data[field], null)
      assert.equal(answer.errors?.[0].extensions?.code, 'FORBIDDEN')
      assert.match(answer.errors?.[0].message ?? '', /^Forbidden/)
    }
    const own = await asAlice(`{ products(orgId: "${alice.orgId}") { id } }`)
    assert.deepEqual(own.data.products, [{ id: aliceProduct.id }])
  })

  it("never shows or changes another org's catalog", async () => {
    const read = await asBob('query P($id: ID!) { product(id: $id) { id name } }', { id: aliceProduct.id })
    assert.deepEqual(read, { status: 200, data: { product: null }, errors: undefined })
    const lists = await asBob('{ products { id } categories { id products { id } } modifierGroups { id } }')
    assert.deepEqual(lists.data, { products: [], categories: [], modifierGroups: [] })
    const update = await asBob('mutation U($id: ID!) { updateProduct(id: $id, input: {name: "Stolen"}) { id } }', {
      id: aliceProduct.id,
    })
    assert.equal(update.errors?.[0].extensions?.code, 'NOT_FOUND')
    const del = await asBob('mutation D($id: ID!) { deleteProduct(id: $id) { id } }', { id: aliceProduct.id })
    assert.equal(del.errors?.[0].extensions?.code, 'NOT_FOUND')
    const intoCategory = await asBob(
      'mutation C($c: ID) { createProduct(input: {name: "x", sku: "x-1", categoryId: $c}) { id } }',
      {
        c: aliceCategory.id,
      },
    )
    assert.equal(intoCategory.errors?.[0].extensions?.field, 'categoryId')
    const mine = await asAlice('query P($id: ID!) { product(id: $id) { name isActive } }', { id: aliceProduct.id })
    assert.deepEqual(mine.data.product, { name: 'Secret sauce', isActive: true })
    assert.equal(await productCount(bob), 0)
  })

  it('needs catalog:read for queries and catalog:write for mutations', async () => {
    const email = `staff-${Date.now()}@example.test`
    await app.runtime.database.transaction(alice.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: alice.orgId, email, role: 'staff', password: 'staff-password' }),
    )
    const login = await clientFor(app.api).post('/api/v1/auth/login', { email, password: 'staff-password' })
    const staff = graphqlClient(`${base}/catalog/graphql`, login.body.data.accessToken)
    assert.equal((await staff('{ products { id } }')).errors, undefined)
    const write = await staff('mutation { createProduct(input: {name: "x", sku: "staff-1"}) { id } }')
    assert.equal(write.data.createProduct, null)
    assert.equal(write.errors?.[0].extensions?.code, 'FORBIDDEN')
    assert.equal(write.errors?.[0].message, 'Forbidden: this token lacks the catalog:write scope')
    assert.equal(await productCount(alice), 1)
  })

  it('names the field of invalid input and changes nothing', async () => {
    const cases: [string, string, string][] = [
      ['{name: "No sku"}', 'sku', 'required'],
      ['{sku: "no-name"}', 'name', 'required'],
      ['{name: "x", sku: "p-1", basePrice: 1.234}', 'basePrice', 'too_precise'],
      ['{name: "x", sku: "p-2", basePrice: -1}', 'basePrice', 'out_of_range'],
      ['{name: "x", sku: "SS-1"}', 'sku', 'taken'],
      ['{name: "x", sku: "p-3", categoryId: "cat_missing"}', 'categoryId', 'not_found'],
      [`{name: "${'n'.repeat(201)}", sku: "p-4"}`, 'name', 'out_of_range'],
      ['{name: "x", sku: "p-5", tags: [""]}', 'tags.0', 'out_of_range'],
    ]
    for (const [input, field, code] of cases) {
      const answer = await asAlice(`mutation { createProduct(input: ${input}) { id } }`)
      assert.equal(answer.data.createProduct, null, input)
      const error = answer.errors?.[0]
      assert.equal(error?.extensions?.code, 'BAD_USER_INPUT', input)
      assert.equal(error?.extensions?.field, field, input)
      assert.equal(error?.extensions?.errors[0].code, code, input)
    }
    const update = await asAlice('mutation U($id: ID!) { updateProduct(id: $id, input: {name: ""}) { id } }', {
      id: aliceProduct.id,
    })
    assert.equal(update.errors?.[0].extensions?.field, 'name')
    assert.equal(await productCount(alice), 1)
    const typeError = await asAlice(
      'mutation { createProduct(input: {name: "x", sku: "t", basePrice: "cheap"}) { id } }',
    )
    assert.equal(typeError.status, 400)
    assert.match(typeError.errors?.[0].message ?? '', /Float/)
  })

  it('refuses a limit above 200 naming the field', async () => {
    const answer = await asAlice('{ products(limit: 201) { id } }')
    assert.equal(answer.errors?.[0].extensions?.field, 'limit')
    assert.equal(answer.errors?.[0].extensions?.code, 'BAD_USER_INPUT')
    assert.equal((await asAlice('{ products(limit: 200) { id } }')).errors, undefined)
  })

  it('refuses too deep or too expensive queries before running them', async () => {
    const deep = await countCatalogQueries(() =>
      asAlice('{ products { category { products { category { products { category { name } } } } } } }'),
    )
    assert.equal(deep.result.status, 400)
    assert.equal(deep.result.data, null)
    assert.ok(deep.result.errors?.some((e) => e.extensions?.code === 'QUERY_TOO_DEEP'))
    assert.equal(deep.queries, 0, 'nothing ran')

    const costly = await countCatalogQueries(() =>
      asAlice(`query Costly($n: Int) {
        a: products(limit: 200) { category { products(limit: 200) { id } } }
        b: products(limit: $n) { category { products(limit: 200) { id } } }
      }`),
    )
    assert.equal(costly.result.status, 400)
    const error = costly.result.errors?.find((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX')
    assert.ok(error, JSON.stringify(costly.result.errors))
    assert.ok(error.extensions!.cost > error.extensions!.maxCost)
    assert.equal(costly.queries, 0, 'nothing ran')

    const viaFragments = await asAlice(`
      { products(limit: 200) { ...P } }
      fragment P on Product { category { products(limit: 200) { category { products(limit: 200) { id } } } } }`)
    assert.ok(viaFragments.errors?.some((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX'))
  })

  it('serves queries over GET /graphql, refuses mutations over GET, and answers syntax errors in the envelope', async () => {
    const get = await fetch(`${base}/graphql?query=${encodeURIComponent('{ products { sku } }')}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    })
    assert.equal(get.status, 200)
    assert.deepEqual(await get.json(), { data: { products: [{ sku: 'SS-1' }] } })

    const mutation = await fetch(
      `${base}/graphql?query=${encodeURIComponent('mutation { deleteProduct(id: "x") { id } }')}`,
      {
        headers: { authorization: `Bearer ${alice.token}` },
      },
    )
    assert.equal(mutation.status, 405)
    assert.equal(mutation.headers.get('allow'), 'POST')
    const refused = await mutation.json()
    assert.equal(refused.data, null)
    assert.equal(refused.errors[0].message, 'a mutation must be sent with POST')
    assert.equal(refused.errors[0].extensions.code, 'METHOD_NOT_ALLOWED')

    const syntax = await asAlice('{ products { id ')
    assert.equal(syntax.status, 400)
    assert.equal(syntax.data, null)
    assert.ok(syntax.errors?.[0].locations)
  })

  it('serves GraphiQL outside production only', async () => {
    const page = await fetch(`${base}/graphiql`)
    assert.equal(page.status, 200)
    assert.match(await page.text(), /GraphiQL/)
    const config = await (await fetch(`${base}/graphiql/config.js`)).text()
    assert.match(config, /GRAPHQL_ENDPOINT = "\/graphql"/)

    // The same runtime and database, built as production: no playground, the API itself unchanged.
    const production = await buildApp({ ...app.runtime, config: { ...app.runtime.config, env: 'production' } })
    try {
      assert.equal((await production.api.inject({ method: 'GET', url: '/graphiql' })).statusCode, 404)
      const ok = await production.api.inject({
        method: 'POST',
        url: '/catalog/graphql',
        payload: { query: '{ __typename }' },
      })
      assert.deepEqual(ok.json(), { data: { __typename: 'Query' } })
    } finally {
      await production.api.close()
    }
  })

  // Last: it spends this address's bucket for requests without a token.
  it('rate limits requests without a valid token by address', async () => {
    const anonymous = graphqlClient(`${base}/graphql`)
    let limited: GraphqlAnswer | undefined
    for (let i = 0; i < 200 && !limited; i++) {
      const answer = await anonymous('{ products { id } }')
      if (answer.status === 429) limited = answer
    }
    assert.ok(limited, 'the address was limited within 200 requests')
    assert.equal(limited.errors?.[0].extensions?.code, 'RATE_LIMITED')
    // A valid token is not held back by the address's bucket.
    assert.equal((await graphqlClient(`${base}/graphql`, alice.token)('{ products { id } }')).errors, undefined)
  })
})
