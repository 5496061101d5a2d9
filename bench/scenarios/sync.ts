import { gzipSync } from 'node:zlib'
import { apiOf } from '../lib/api.ts'
import { cpuTimeUs, median } from '../lib/measure.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

/**
 * Issue 27 "Speed": the catalog snapshot a till carries, of the seeded 10,000 products, and a delta after one price
 * change: time per answer (median of sequential requests, alternating the two), the app's CPU per answer and the
 * bytes, plain and gzipped. Target: the whole catalog under 2 MB compressed.
 */
export default async function sync(t: BenchTarget): Promise<BenchRow[]> {
  const { call } = apiOf(t)
  const location = (await call('POST', '/api/v1/locations', { name: 'Sync bench' })).data.id
  const register = (await call('POST', '/api/v1/registers', { location_id: location, name: 'Till' })).data.id
  const { code } = (await call('POST', `/api/v1/registers/${register}/pairing`, {})).data
  const { device_token } = (await call('POST', '/api/v1/devices/pair', { code })).data
  const { access_token } = (await call('POST', '/api/v1/devices/token', { device_token })).data
  const get = async (query: string) => {
    const started = performance.now()
    const res = await fetch(`${t.apiUrl}/api/v1/sync/catalog${query}`, {
      headers: { authorization: `Bearer ${access_token}`, 'accept-encoding': 'identity' },
    })
    const body = await res.text()
    if (res.status !== 200) throw new Error(`sync/catalog${query}: ${res.status} ${body.slice(0, 200)}`)
    return { ms: performance.now() - started, body }
  }

  const first = await get('')
  const { version } = JSON.parse(first.body).data as { version: string }
  const [product] = (await call('GET', '/api/v1/products?limit=1')).data as { id: string; base_price: number }[]
  await call('PATCH', `/api/v1/products/${product.id}`, { base_price: product.base_price + 0.1 })

  const rounds = Math.max(t.rounds * 3, 5)
  const full: number[] = []
  const delta: number[] = []
  const cpu = { full: [] as number[], delta: [] as number[] }
  let last = { full: first.body, delta: '' }
  for (let i = 0; i < rounds; i++) {
    for (const kind of ['full', 'delta'] as const) {
      const before = cpuTimeUs(t.serverPid)
      const answer = await get(kind === 'full' ? '' : `?since=${version}`)
      const after = cpuTimeUs(t.serverPid)
      ;(kind === 'full' ? full : delta).push(answer.ms)
      if (before !== undefined && after !== undefined) cpu[kind].push(after - before)
      last = { ...last, [kind]: answer.body }
    }
  }
  const products = (JSON.parse(last.full).data.products as unknown[]).length
  const changed = (JSON.parse(last.delta).data.products as unknown[]).length
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`
  const row = (scenario: string, ms: number[], cpuUs: number[], body: string, note: string): BenchRow => ({
    engine: t.engine,
    scenario,
    reqPerSec: 1000 / median(ms),
    p99Ms: Math.round(Math.max(...ms)),
    ...(cpuUs.length ? { cpuUsPerReq: median(cpuUs) } : {}),
    note: `${note}; ${kb(Buffer.byteLength(body))} plain, ${kb(gzipSync(body).length)} gzipped; median ${median(ms).toFixed(0)} ms (p99 column: slowest of ${rounds})`,
  })
  return [
    row('GET /sync/catalog (whole)', full, cpu.full, last.full, `${products} products`),
    row('GET /sync/catalog?since (one price changed)', delta, cpu.delta, last.delta, `${changed} product`),
  ]
}
