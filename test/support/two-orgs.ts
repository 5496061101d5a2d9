import assert from 'node:assert/strict'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from './harness.ts'
import { openShop, type Shop } from './shop.ts'

export type Api = ReturnType<typeof clientFor>

/**
 * A fresh app for one test file with two merchants: `api` (the `merchant`'s client) acts, `other` is the second
 * org every cross-org check expects a 404 for.
 */
export async function appWithTwoMerchants(): Promise<{ app: TestApp; merchant: Merchant; api: Api; other: Api }> {
  const app = await startTestApp()
  const merchant = await createMerchant(app)
  const api = clientFor(app.api, merchant.token)
  const other = clientFor(app.api, (await createMerchant(app)).token)
  return { app, merchant, api, other }
}

/** A fresh app with two open shops (see shop.ts): `shop` acts, `other` is the second org. */
export async function appWithTwoShops(): Promise<{ app: TestApp; shop: Shop; other: Shop }> {
  const app = await startTestApp()
  const shop = await openShop(app)
  const other = await openShop(app)
  return { app, shop, other }
}

/** A POST that must create: fails the test with the problem body otherwise, else gives the created resource. */
export async function created(api: Api, path: string, body: object) {
  const res = await api.post(path, body)
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return res.body.data
}
