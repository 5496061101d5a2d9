import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Redis } from 'ioredis'
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import { constantTimeEqual } from '../crypto/tokens.ts'
import type { Database } from '../db/database.ts'
import { type ErrorKind, errorKinds, unauthorized } from '../errors/app-error.ts'
import { HttpMetrics } from './http-metrics.ts'

/** The problem kind of an error status, for `errors_total` (docs/api-conventions.md "Errors"). */
const kindOf = new Map<number, ErrorKind>(
  (Object.entries(errorKinds) as [ErrorKind, { status: number }][]).map(([kind, { status }]) => [status, kind]),
)

/**
 * `GET /metrics` in Prometheus text format (prom-client), one registry per app: HTTP requests and their duration
 * by method, route pattern and status; errors by problem kind; the pool; Redis round trip; the deployment's
 * outbox lag, webhook attempts and automation runs (metrics_snapshot in the database); the process defaults.
 */
export function installMetrics(
  app: FastifyInstance,
  deps: { database: Database; redis: Redis | undefined; token: string | undefined; snapshotMs: number },
): void {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const http = new HttpMetrics(registry)
  const errors = new Counter({
    name: 'errors_total',
    help: 'Error answers by problem kind',
    labelNames: ['kind'],
    registers: [registry],
  })
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections in use and idle, and checkouts waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = deps.database.poolStats()
      this.set({ state: 'in_use' }, stats.inUse)
      this.set({ state: 'idle' }, stats.idle)
      this.set({ state: 'waiting' }, stats.waiting)
    },
  })
  if (deps.redis) {
    const redis = deps.redis
    new Gauge({
      name: 'redis_round_trip_seconds',
      help: 'Time of a Redis PING at scrape time',
      registers: [registry],
      async collect() {
        const t = process.hrtime.bigint()
        await redis.ping()
        this.set(Number(process.hrtime.bigint() - t) / 1e9)
      },
    })
  }
  const snapshot = new Map<string, Gauge>()
  const gauge = (name: string, help: string, labelNames: string[] = []) => {
    const g = new Gauge({ name, help, labelNames, registers: [registry] })
    snapshot.set(name, g)
    return g
  }
  gauge('outbox_lag_seconds', 'Age of the oldest committed event not yet relayed to its webhook deliveries')
  gauge('webhook_deliveries_pending', 'Webhook deliveries waiting for an attempt')
  gauge('webhook_attempts_5m', 'Webhook attempts of the last five minutes by outcome', ['outcome'])
  gauge('automation_runs_open', 'Automation runs pending or running', ['state'])
  gauge('automation_runs_finished_5m', 'Automation runs finished in the last five minutes by state', ['state'])
  const snapshotReads = new Counter({
    name: 'metrics_snapshot_reads_total',
    help: "Readings of the database's figures (at most one per METRICS_SNAPSHOT_MS, whatever the scrapes)",
    registers: [registry],
  })

  /**
   * The database's figures scan every org's queues: one reading serves every scrape for `snapshotMs`, and scrapes
   * that arrive while it runs wait for it, so scraping often (or many scrapers) never multiplies the query.
   */
  type SnapshotRow = { metric: string; label: string; value: number }
  // `at` is when the reading finished (null while it runs): a slow reading is shared, never started twice.
  let latest: { at: number | null; rows: Promise<SnapshotRow[]> } | undefined
  function readSnapshot(): Promise<SnapshotRow[]> {
    if (latest && (latest.at === null || Date.now() - latest.at < deps.snapshotMs)) return latest.rows
    snapshotReads.inc()
    const reading: { at: number | null; rows: Promise<SnapshotRow[]> } = {
      at: null,
      rows: deps.database
        .statement<SnapshotRow>('SELECT metric, label, value FROM metrics_snapshot()')
        .then((result) => {
          reading.at = Date.now()
          return result.rows
        }),
    }
    latest = reading
    // A failed reading is not kept: the next scrape reads again.
    reading.rows.catch(() => {
      if (latest === reading) latest = undefined
    })
    return reading.rows
  }

  // A callback hook (no promise per request) and Fastify's own start time.
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    http.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    if (reply.statusCode >= 400) errors.inc({ kind: kindOf.get(reply.statusCode) ?? String(reply.statusCode) })
    done()
  })

  app.get(
    '/metrics',
    {
      config: { scope: false, pressureHandler: () => undefined },
      schema: { hide: true },
    },
    async (request, reply) => {
      if (deps.token) {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
        if (!constantTimeEqual(given, deps.token))
          throw unauthorized('GET /metrics needs the METRICS_TOKEN bearer token')
      }
      const rows = await readSnapshot()
      for (const g of snapshot.values()) g.reset()
      for (const r of rows) {
        const g = snapshot.get(r.metric)
        if (!g) continue
        const labelName = r.metric.startsWith('webhook_attempts') ? 'outcome' : 'state'
        if (r.label === '') g.set(r.value)
        else g.set({ [labelName]: r.label }, r.value)
      }
      return reply.type(registry.contentType).send(await registry.metrics())
    },
  )
}
