import assert from 'node:assert/strict'
import type { JsonBody } from '../../test/support/harness.ts'
import type { BenchTarget } from './types.ts'

/** The seeded owner's JSON calls against the app under test; a call that fails stops the benchmark. */
export function apiOf(t: Pick<BenchTarget, 'apiUrl' | 'token'>) {
  const headers = { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.apiUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json()) as JsonBody
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  return { headers, call }
}

type Call = ReturnType<typeof apiOf>['call']

/** A new location named `name` whose first `count` products (60) each hold 1,000,000 units: a shop to sell from. */
export async function stockedShop(call: Call, name: string, count = 60) {
  const location: string = (await call('POST', '/api/v1/locations', { name })).data.id
  const products = (await call('GET', `/api/v1/products?limit=${count}`)).data as {
    id: string
    category_id: string | null
  }[]
  for (const p of products)
    await call('POST', '/api/v1/inventory/adjust', {
      product_id: p.id,
      location_id: location,
      quantity: 1_000_000,
      reason: 'received',
    })
  return { location, productIds: products.map((p) => p.id), products }
}

/** Three different ids of `ids`, at random: a sale's lines, so that concurrent sales rarely wait on one stock row. */
export function threeOf(ids: readonly string[]): string[] {
  const picked = new Set<string>()
  while (picked.size < 3) picked.add(ids[Math.floor(Math.random() * ids.length)])
  return [...picked]
}
