import assert from 'node:assert/strict'
import { systemContext } from '../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type JsonBody, type Merchant, type TestApp } from './harness.ts'

export type Api = ReturnType<typeof clientFor>

/** A merchant with a location, ready to sell: products are created with stock on demand. */
export interface Shop {
  merchant: Merchant
  api: Api
  locationId: string
  product(price: number, options?: { stock?: number; categoryId?: string; name?: string }): Promise<string>
  stock(productId: string, quantity: number): Promise<void>
  level(productId: string): Promise<number>
  ledgerSum(productId: string): Promise<number>
}

let sku = 0

export async function openShop(app: TestApp, options: { currency?: string } = {}): Promise<Shop> {
  const merchant = await createMerchant(app, options)
  const api = clientFor(app.api, merchant.token)
  const location = await api.post('/api/v1/locations', { name: 'Shop' })
  assert.equal(location.status, 201, JSON.stringify(location.body))
  const locationId = location.body.data.id as string
  const shop: Shop = {
    merchant,
    api,
    locationId,
    async product(price, o = {}) {
      const res = await api.post('/api/v1/products', {
        name: o.name ?? `Item ${sku + 1}`,
        sku: `sku-${++sku}-${Math.random().toString(36).slice(2, 8)}`,
        base_price: price,
        ...(o.categoryId ? { category_id: o.categoryId } : {}),
      })
      assert.equal(res.status, 201, JSON.stringify(res.body))
      if (o.stock) await shop.stock(res.body.data.id, o.stock)
      return res.body.data.id
    },
    async stock(productId, quantity) {
      const res = await api.post('/api/v1/inventory/adjust', {
        product_id: productId,
        location_id: locationId,
        quantity,
        reason: 'received',
      })
      assert.equal(res.status, 201, JSON.stringify(res.body))
    },
    async level(productId) {
      const res = await api.get(`/api/v1/inventory/levels?product_id=${productId}&location_id=${locationId}`)
      return (res.body.data[0]?.on_hand as number) ?? 0
    },
    async ledgerSum(productId) {
      let sum = 0
      let cursor: string | null = null
      do {
        const res: { body: JsonBody } = await api.get(
          `/api/v1/inventory/movements?product_id=${productId}&location_id=${locationId}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
        )
        for (const m of res.body.data) sum += m.quantity
        cursor = res.body.pagination.nextCursor
      } while (cursor)
      return sum
    },
  }
  return shop
}

/** Pays an order in full with one captured card payment. */
export async function payInFull(api: Api, orderId: string, amount: number) {
  const res = await api.post('/api/v1/payments', {
    order_id: orderId,
    amount,
    method: 'card',
    payment_method_token: 'pm_card_visa',
    capture: true,
  })
  assert.equal(res.status, 201, JSON.stringify(res.body))
  return res.body.data
}

/** The outbox rows of an org, read straight from the table (the events API serves only settled snapshots). */
export async function outbox(app: TestApp, orgId: string, type: string): Promise<JsonBody[]> {
  const ctx = systemContext(app.runtime.database, orgId, [])
  const result = await ctx.db.read((q) =>
    q.query<{ data: JsonBody }>('SELECT data FROM events WHERE org_id = $1 AND type = $2 ORDER BY id', [orgId, type]),
  )
  return result.rows.map((r) => r.data)
}
