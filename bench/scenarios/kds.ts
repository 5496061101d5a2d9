import { Agent, type ClientRequest, request } from 'node:http'
import { Database } from '../../src/platform/db/database.ts'
import { emitEvent } from '../../src/platform/events/outbox.ts'
import type { BenchRow, BenchTarget } from '../lib/types.ts'

const SCREENS = 500
const ORDERS = 20
/** Pause between orders, so each order's fan-out is measured on its own. */
const GAP_MS = 250

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

interface Screen {
  req: ClientRequest
  /** order id -> when this screen received it (ms, performance clock) */
  seen: Map<string, number>
}

/** Opens one kitchen screen: a plain HTTP client that notes when each order's data line arrives. */
function openScreen(t: BenchTarget, agent: Agent): Promise<Screen> {
  return new Promise((resolve, reject) => {
    const seen = new Map<string, number>()
    const req = request(
      `${t.apiUrl}/api/v1/kds/stream`,
      { agent, headers: { authorization: `Bearer ${t.token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`kds stream answered ${res.statusCode}`))
        res.setEncoding('utf8')
        let pending = ''
        res.on('data', (chunk: string) => {
          const at = performance.now()
          pending += chunk
          const lines = pending.split('\n')
          pending = lines.pop() ?? ''
          for (const line of lines) {
            const match = /^data: .*"id":"(ord_kds_bench_\d+)"/.exec(line)
            if (match) seen.set(match[1], at)
          }
        })
        resolve({ req, seen })
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/**
 * Issue 5 "Speed": 500 kitchen screens of one org hold the SSE feed open while orders commit one by one;
 * reports, per order, the time from its commit to the last of the 500 screens receiving it (p50, p99), and how
 * many orders per second the fan-out sustains when they commit back to back.
 */
export default async function kds(t: BenchTarget): Promise<BenchRow[]> {
  const database = new Database({ connectionString: t.ownerUrl, max: 2 })
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const screens: Screen[] = []
  try {
    for (let i = 0; i < SCREENS; i += 50) {
      screens.push(
        ...(await Promise.all(Array.from({ length: Math.min(50, SCREENS - i) }, () => openScreen(t, agent)))),
      )
    }
    const committedAt = new Map<string, number>()
    const commit = async (id: string) => {
      await database.transaction(t.orgId, (q) =>
        emitEvent(q, t.orgId, 'order.created', { id, location_id: null, status: 'open' }),
      )
      committedAt.set(id, performance.now())
    }
    const everyoneHas = (ids: string[]) => screens.every((s) => ids.every((id) => s.seen.has(id)))
    const waitFor = async (ids: string[], timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs
      while (!everyoneHas(ids)) {
        if (performance.now() > deadline) throw new Error('kds bench: not every screen received every order')
        await new Promise((r) => setTimeout(r, 5))
      }
    }

    // One order at a time: commit to last screen.
    const spaced: string[] = []
    for (let i = 0; i < ORDERS; i++) {
      const id = `ord_kds_bench_${i}`
      spaced.push(id)
      await commit(id)
      await waitFor([id], 10_000)
      await new Promise((r) => setTimeout(r, GAP_MS))
    }
    const lastScreen = spaced.map((id) => Math.max(...screens.map((s) => s.seen.get(id)!)) - committedAt.get(id)!)

    // A burst: orders committed back to back, until every screen has all of them.
    const burst = Array.from({ length: 200 }, (_, i) => `ord_kds_bench_${ORDERS + i}`)
    const started = performance.now()
    for (const id of burst) await commit(id)
    await waitFor(burst, 60_000)
    const burstSeconds = (performance.now() - started) / 1000

    return [
      {
        engine: t.engine,
        scenario: `kds: ${SCREENS} open streams, commit to last screen`,
        reqPerSec: (burst.length * SCREENS) / burstSeconds,
        p99Ms: Math.round(percentile(lastScreen, 99)),
        note: `(messages/s delivered in a 200-order burst; commit to last screen p50 ${Math.round(percentile(lastScreen, 50))} ms, p99 ${Math.round(percentile(lastScreen, 99))} ms)`,
      },
    ]
  } finally {
    for (const s of screens) s.req.destroy()
    agent.destroy()
    await database.close()
  }
}
