import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'

export interface Load {
  name: string
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Checked once before measuring, so a benchmark never times error answers. */
  expect?: (status: number, body: string) => void
}

export interface Sample {
  reqPerSec: number
  p99Ms: number
  /** CPU time the server process spent per request (user + system), when its pid is known. */
  cpuUsPerReq?: number
}

const TICKS_PER_SECOND = 100

/** User plus system CPU time of a process in microseconds, from /proc (Linux); undefined elsewhere. */
export function cpuTimeUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the command name.
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

async function once(load: Load, durationS: number, serverPid?: number): Promise<Sample> {
  const cpuBefore = cpuTimeUs(serverPid)
  const result = await autocannon({
    url: load.url,
    method: load.method ?? 'GET',
    headers: load.headers,
    body: load.body,
    connections: CONNECTIONS,
    duration: durationS,
  })
  const failures = result.non2xx + result.errors + result.timeouts
  if (failures > 0) throw new Error(`${load.name}: ${failures} failed requests of ${result.requests.total}`)
  const cpuAfter = cpuTimeUs(serverPid)
  const cpuUsPerReq =
    cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0
      ? undefined
      : (cpuAfter - cpuBefore) / result.requests.total
  return { reqPerSec: result.requests.average, p99Ms: result.latency.p99, cpuUsPerReq }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/**
 * Measures the loads in alternating rounds (A, B, C, A, B, C, …) after a short warm-up of each, so drift in the
 * machine's load hits all of them alike, and reports the median of each.
 */
export async function compare(
  loads: Load[],
  rounds: number,
  durationS: number,
  serverPid?: number,
): Promise<Map<string, Sample>> {
  for (const load of loads) {
    const response = await fetch(load.url, { method: load.method ?? 'GET', headers: load.headers, body: load.body })
    const text = await response.text()
    if (load.expect) load.expect(response.status, text)
    else if (response.status !== 200) throw new Error(`${load.name}: status ${response.status}: ${text.slice(0, 300)}`)
    await once(load, 1)
  }
  const samples = new Map<string, Sample[]>(loads.map((l) => [l.name, []]))
  for (let round = 0; round < rounds; round++) {
    for (const load of loads) samples.get(load.name)!.push(await once(load, durationS, serverPid))
  }
  return new Map(
    [...samples].map(([name, list]) => {
      const cpu = list.map((s) => s.cpuUsPerReq).filter((c): c is number => c !== undefined)
      const sample: Sample = {
        reqPerSec: median(list.map((s) => s.reqPerSec)),
        p99Ms: median(list.map((s) => s.p99Ms)),
        cpuUsPerReq: cpu.length ? median(cpu) : undefined,
      }
      return [name, sample]
    }),
  )
}
