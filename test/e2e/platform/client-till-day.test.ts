import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TypedDocumentNode } from '@graphql-typed-document-node/core'
import { createOpenTillClient, type OpenTillClient, unwrap } from '@opentill/client'
import { parse } from 'graphql'
import { GraphQLClient } from 'graphql-request'
import { createMerchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { tillDay } from '../../support/till-day.ts'

/** The catalog's GraphQL, through a typed document: the result and the variables are typed at the call. */
const PRODUCT_BY_SKU: TypedDocumentNode<
  { products: { id: string; name: string; variants: { sku: string; price: number | null }[] }[] | null },
  { sku: string }
> = parse('query ProductBySku($sku: String) { products(sku: $sku) { id name variants { sku price } } }')

/** A day at a till through @opentill/client against the real server, listening on a port (test/support/till-day.ts). */
describe('a day at a till through the typed client', () => {
  let app: TestApp
  let client: OpenTillClient
  let address: string

  before(async () => {
    app = await startTestApp()
    const merchant = await createMerchant(app)
    address = await app.api.listen({ port: 0, host: '127.0.0.1' })
    client = createOpenTillClient({ baseUrl: address })
    await client.login(merchant.email, merchant.password)
  })
  after(() => app?.close())

  it('sells, splits a payment across a card and a gift card, refunds, and reports, all typed', async () => {
    await tillDay(client)
    const graphql = new GraphQLClient(`${address}/catalog/graphql`, {
      headers: { authorization: `Bearer ${client.session?.accessToken ?? ''}` },
    })
    const { products: found } = await graphql.request(PRODUCT_BY_SKU, { sku: 'FW-1' })
    assert.deepEqual(
      found?.map((p) => [p.name, p.variants.map((v) => [v.sku, v.price])]),
      [['Flat white', [['FW-1-L', 5.5]]]],
    )
  })
})

describe("the typed client's session and retries", () => {
  let app: TestApp
  let baseUrl: string

  before(async () => {
    // Tokens that live 20 s: always within the client's 30-second margin, so every call refreshes first.
    app = await startTestApp({ ACCESS_TOKEN_TTL_S: '20' })
    baseUrl = await app.api.listen({ port: 0, host: '127.0.0.1' })
  })
  after(() => app?.close())

  it('refreshes its token before it expires, and keeps calling with the new one', async () => {
    const merchant = await createMerchant(app)
    const client = createOpenTillClient({ baseUrl })
    const first = await client.login(merchant.email, merchant.password)
    const { data: me } = await unwrap(client.GET('/api/v1/auth/me'))
    assert.equal(me.email, merchant.email)
    assert.ok(client.session)
    assert.notEqual(client.session.accessToken, first.accessToken, 'the call refreshed the token first')
    assert.notEqual(client.session.refreshToken, first.refreshToken, 'and rotated the refresh token')
  })

  it('sends a write whose answer was lost again with the same Idempotency-Key, and the server does it once', async () => {
    const merchant = await createMerchant(app)
    // The network loses the answer to the first location written: the server did the work, the caller saw nothing.
    let lost = false
    const lossy: typeof fetch = async (input, init) => {
      const request = new Request(input, init)
      const response = await fetch(request)
      if (!lost && request.method === 'POST' && request.url.endsWith('/api/v1/locations')) {
        lost = true
        throw new TypeError('fetch failed')
      }
      return response
    }
    const client = createOpenTillClient({ baseUrl, fetch: lossy })
    await client.login(merchant.email, merchant.password)
    const { data: made } = await unwrap(client.POST('/api/v1/locations', { body: { name: 'Once only' } }))
    assert.ok(lost, 'the first answer was lost')
    const { data: all } = await unwrap(client.GET('/api/v1/locations'))
    assert.deepEqual(
      all.filter((l) => l.name === 'Once only').map((l) => l.id),
      [made.id],
      'one location, though the write went twice (before, the client sent a new key and made two)',
    )
  })
})
