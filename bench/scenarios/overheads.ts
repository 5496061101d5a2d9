import assert from 'node:assert/strict'
import { compare } from '../lib/measure.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

/**
 * Issue 13 "Speed": what metrics and the org rate limit cost per request. The same authenticated route (a cached
 * product list, the cheapest one, where a fixed cost weighs most) on the same process and runtime, answered by the
 * full app and by the app without one of the two; alternating rounds, medians. Target: each under 5 %.
 */
export default async function overheads(t: BenchTarget): Promise<BenchRow[]> {
  const path = '/api/v1/products?limit=20'
  const headers = { authorization: `Bearer ${t.token}` }
  const expect = (status: number, body: string) => {
    assert.equal(status, 200, body)
    assert.equal(JSON.parse(body).data.length, 20)
  }
  const results = await compare(
    [
      { name: 'full', url: `${t.apiUrl}${path}`, headers, expect },
      { name: 'no-metrics', url: `${t.withoutMetricsUrl}${path}`, headers, expect },
      { name: 'no-rate-limit', url: `${t.withoutOrgRateLimitUrl}${path}`, headers, expect },
    ],
    t.rounds,
    t.durationS,
    t.serverPid,
  )
  const full = results.get('full')!
  const row = (name: string, scenario: string): BenchRow => {
    const s = results.get(name)!
    const cpuCost = full.cpuUsPerReq && s.cpuUsPerReq ? (full.cpuUsPerReq / s.cpuUsPerReq - 1) * 100 : undefined
    return {
      engine: t.engine,
      scenario,
      reqPerSec: s.reqPerSec,
      p99Ms: s.p99Ms,
      cpuUsPerReq: s.cpuUsPerReq,
      note:
        name === 'full'
          ? 'with metrics and the org rate limit'
          : `the full app costs ${((s.reqPerSec / full.reqPerSec - 1) * 100).toFixed(1)} % in req/s` +
            (cpuCost === undefined ? '' : `, ${cpuCost.toFixed(1)} % in CPU per request`),
      target: name === 'full' ? undefined : '< 5 %',
    }
  }
  return [
    row('full', `GET ${path}, full app`),
    row('no-metrics', `GET ${path}, same app without metrics`),
    row('no-rate-limit', `GET ${path}, same app without the org rate limit`),
  ]
}
