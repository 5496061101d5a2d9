import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import pg from 'pg'
import { apiOf, stockedShop, threeOf } from '../lib/api.ts'
import { analyzeAll } from '../lib/database.ts'
import { CONNECTIONS, cpuTimeUs, median } from '../lib/measure.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

const run = promisify(execFile)

/**
 * pgbench's TPC-B-like workload on the same server, the yardstick for what the machine's PostgreSQL does with
 * small write transactions: `pgbench -i` into a scratch database once, then `pgbench -c 16 -j 2 -T <s>` per round.
 */
async function pgbenchOn(ownerUrl: string) {
  const name = `opentill_pgbench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: ownerUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(ownerUrl)
  url.pathname = `/${name}`
  await run('pgbench', ['-i', '-q', url.toString()])
  return {
    async tps(durationS: number): Promise<number> {
      const { stdout } = await run('pgbench', ['-c', '16', '-j', '2', '-T', String(durationS), url.toString()])
      const match = /tps = ([\d.]+)/.exec(stdout)
      if (!match) throw new Error(`pgbench printed no tps: ${stdout}`)
      return Number(match[1])
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

/**
 * Issue 4 "Speed": POST /api/v1/orders with 3 lines (each picked from 60 stocked products), which prices them,
 * stores the order, decrements 3 stock levels with their movements and writes the order.created outbox row in one
 * transaction. Reported beside pgbench's TPC-B-like rate on the same server; the target is 50 % of it (issue 29; 40 % before).
 */
export default async function orders(t: BenchTarget): Promise<BenchRow[]> {
  const { headers, call } = apiOf(t)
  const { location, productIds } = await stockedShop(call, `Bench store ${randomBytes(3).toString('hex')}`)
  const body = () =>
    JSON.stringify({
      location_id: location,
      lines: threeOf(productIds).map((product_id) => ({ product_id, quantity: 1 })),
    })
  const sample = await call('POST', '/api/v1/orders', JSON.parse(body()))
  assert.equal(sample.data.lines.length, 3)

  const once = async (durationS: number) => {
    const cpuBefore = cpuTimeUs(t.serverPid)
    const result = await autocannon({
      url: t.apiUrl,
      connections: CONNECTIONS,
      duration: durationS,
      requests: [
        { method: 'POST', path: '/api/v1/orders', headers, setupRequest: (req) => ({ ...req, body: body() }) },
      ],
    })
    const failures = result.non2xx + result.errors + result.timeouts
    if (failures > 0) throw new Error(`orders: ${failures} failed requests of ${result.requests.total}`)
    const cpuAfter = cpuTimeUs(t.serverPid)
    const cpuUsPerReq =
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / result.requests.total
    return { reqPerSec: result.requests.average, p99Ms: result.latency.p99, cpuUsPerReq }
  }
  // Warm-up (the first seconds run slower): the JIT, the pool's connections and prepared statements, the kept catalog data.
  await once(5)
  await analyzeAll(t.ownerUrl)
  // On a server, rounds of orders alternate with rounds of pgbench of the same length, so both see the same
  // machine; the share is the median of each round's orders over the pgbench round that follows it.
  const pgbench = t.engine === 'server' ? await pgbenchOn(t.ownerUrl) : null
  const samples = []
  const tpsSamples: number[] = []
  try {
    for (let round = 0; round < t.rounds; round++) {
      samples.push(await once(t.durationS))
      if (pgbench) tpsSamples.push(await pgbench.tps(t.durationS))
    }
  } finally {
    await pgbench?.drop()
  }
  const rate = median(samples.map((s) => s.reqPerSec))
  const p99 = median(samples.map((s) => s.p99Ms))
  const cpu = samples.every((s) => s.cpuUsPerReq !== undefined) ? median(samples.map((s) => s.cpuUsPerReq!)) : undefined

  const rows: BenchRow[] = []
  if (pgbench) {
    const share = median(samples.map((s, i) => s.reqPerSec / tpsSamples[i]))
    rows.push({
      engine: t.engine,
      scenario: `pgbench TPC-B-like, -c 16 -j 2, ${t.rounds} rounds of ${t.durationS} s alternating with the orders rounds`,
      reqPerSec: median(tpsSamples),
      p99Ms: 0,
      note: `(tps; p99 not measured; rounds ${tpsSamples.map((v) => Math.round(v)).join(', ')})`,
    })
    rows.push({
      engine: t.engine,
      scenario: 'POST /api/v1/orders, 3 lines, stock decremented, outbox row',
      reqPerSec: rate,
      p99Ms: p99,
      cpuUsPerReq: cpu,
      target: '>= 50% of pgbench tps (issue 29; pgbench -c 16 as it asks)',
      note: `(median share of pgbench ${(share * 100).toFixed(0)}%; rounds ${samples
        .map((s, i) => `${Math.round(s.reqPerSec)} (${((s.reqPerSec / tpsSamples[i]) * 100).toFixed(0)}%)`)
        .join(', ')})`,
    })
  } else {
    rows.push({
      engine: t.engine,
      scenario: 'POST /api/v1/orders, 3 lines, stock decremented, outbox row',
      reqPerSec: rate,
      p99Ms: p99,
      cpuUsPerReq: cpu,
    })
  }
  return rows
}
