import { ulid } from 'ulidx'
import { apiOf } from '../lib/api.ts'
import { cpuTimeUs, median } from '../lib/measure.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

const SALES = 500

/**
 * Issue 27 "Speed": a batch of 500 sales a till made offline (`POST /sync/orders`) against the same 500 sales sent
 * one by one as `POST /orders` and a cash `POST /payments` each, which is what a till without the sync endpoint
 * would do, on one connection (a till sends in order), alternating A and B rounds. Figures: time and app CPU per sale.
 * Target: the batch at least 3× faster per sale.
 */
export default async function syncOrders(t: BenchTarget): Promise<BenchRow[]> {
  const { call, headers } = apiOf(t)
  const location = (await call('POST', '/api/v1/locations', { name: 'Offline bench' })).data.id
  const register = (await call('POST', '/api/v1/registers', { location_id: location, name: 'Till' })).data.id
  const { code } = (await call('POST', `/api/v1/registers/${register}/pairing`, {})).data
  const { device_token } = (await call('POST', '/api/v1/devices/pair', { code })).data
  const { access_token } = (await call('POST', '/api/v1/devices/token', { device_token })).data
  const [product] = (await call('GET', '/api/v1/products?limit=1')).data as { id: string; base_price: number }[]
  await call('POST', '/api/v1/inventory/adjust', {
    product_id: product.id,
    location_id: location,
    quantity: 1_000_000,
    reason: 'received',
  })
  const price = product.base_price

  const batch = async () => {
    const sales = Array.from({ length: SALES }, () => ({
      client_sale_id: ulid(),
      sold_at: new Date(Date.now() - 60_000).toISOString(),
      lines: [
        {
          product_id: product.id,
          quantity: 1,
          unit_price: price,
          tax_rate: 0,
          line_subtotal: price,
          line_discount: 0,
          line_tax: 0,
          line_total: price,
        },
      ],
      subtotal: price,
      discount_total: 0,
      tax_total: 0,
      total: price,
      payments: [{ method: 'cash', amount: price }],
    }))
    const res = await fetch(`${t.apiUrl}/api/v1/sync/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sales }),
    })
    const body = (await res.json()) as { data: { result: string }[] }
    if (res.status !== 200 || body.data.some((r) => r.result !== 'recorded')) throw new Error(`batch: ${res.status}`)
  }
  const singles = async () => {
    for (let i = 0; i < SALES; i++) {
      const order = await fetch(`${t.apiUrl}/api/v1/orders`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ location_id: location, lines: [{ product_id: product.id, quantity: 1 }] }),
      })
      const { data } = (await order.json()) as { data: { id: string; total: number } }
      const paid = await fetch(`${t.apiUrl}/api/v1/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ order_id: data.id, amount: data.total, method: 'cash' }),
      })
      if (order.status !== 201 || paid.status !== 201) throw new Error(`single: ${order.status} ${paid.status}`)
    }
  }

  const runs = { batch: [] as number[], singles: [] as number[] }
  const cpu = { batch: [] as number[], singles: [] as number[] }
  for (let round = 0; round < t.rounds; round++) {
    for (const [kind, run] of [
      ['batch', batch],
      ['singles', singles],
    ] as const) {
      const before = cpuTimeUs(t.serverPid)
      const started = performance.now()
      await run()
      runs[kind].push((performance.now() - started) / SALES)
      const after = cpuTimeUs(t.serverPid)
      if (before !== undefined && after !== undefined) cpu[kind].push((after - before) / SALES)
    }
  }
  const ratio = median(runs.singles) / median(runs.batch)
  const row = (scenario: string, kind: 'batch' | 'singles', note: string): BenchRow => ({
    engine: t.engine,
    scenario,
    reqPerSec: 1000 / median(runs[kind]),
    p99Ms: Math.round(Math.max(...runs[kind]) * 10) / 10,
    ...(cpu[kind].length ? { cpuUsPerReq: Math.round(median(cpu[kind])) } : {}),
    note,
  })
  return [
    row(
      'POST /sync/orders, 500 offline sales in one batch (per sale)',
      'batch',
      `${ratio.toFixed(2)}× the sales per second of one by one (target 3×); p99 column: slowest round, ms per sale`,
    ),
    row('POST /orders + POST /payments, the same 500 one by one (per sale)', 'singles', 'one connection, in order'),
  ]
}
