import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/** One sample of a metric in Prometheus text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue
    return Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return undefined
}

describe('GET /metrics and load shedding', () => {
  let app: TestApp
  let merchant: Merchant

  before(async () => {
    // One stall of a second makes a quarter-second window about 90 % busy.
    app = await startTestApp({
      METRICS_TOKEN: 'scrape-secret',
      SHED_EVENT_LOOP_UTILIZATION: '0.85',
      METRICS_SNAPSHOT_MS: '3600000',
    })
    // Starting an app (compiling schemas, migrating) stalls the loop itself: let a quiet sample window pass.
    await new Promise((resolve) => setTimeout(resolve, 600))
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  const scrape = (token?: string) =>
    app.api.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} })

  it('needs METRICS_TOKEN when it is set', async () => {
    assert.equal((await scrape()).statusCode, 401)
    assert.equal((await scrape('wrong')).statusCode, 401)
    assert.equal((await scrape('scrape-secret')).statusCode, 200)
  })

  it('counts requests by method, route pattern and status, errors by kind, and reads pool, outbox and runs', async () => {
    const api = clientFor(app.api, merchant.token)
    for (let i = 0; i < 3; i++) assert.equal((await api.get('/api/v1/products?limit=1')).status, 200)
    assert.equal((await api.get('/api/v1/products/prod_missing')).status, 404)
    const res = await scrape('scrape-secret')
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/)
    const text = res.body
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/api/v1/products', status: '200' }), 3)
    assert.equal(sample(text, 'http_requests_total', { route: '/api/v1/products/:id', status: '404' }), 1)
    assert.equal(sample(text, 'http_request_duration_seconds_count', { route: '/api/v1/products', status: '200' }), 3)
    const bucket = (le: string) =>
      sample(text, 'http_request_duration_seconds_bucket', { route: '/api/v1/products', status: '200', le })
    assert.equal(bucket('+Inf'), 3)
    assert.equal(bucket('5'), 3, 'each answer took under 5 s')
    assert.ok((bucket('0.005') ?? 0) <= (bucket('0.01') ?? 0), 'buckets are cumulative')
    assert.ok((sample(text, 'errors_total', { kind: 'not-found' }) ?? 0) >= 1)
    for (const state of ['in_use', 'idle', 'waiting'])
      assert.notEqual(sample(text, 'db_pool_connections', { state }), undefined)
    assert.notEqual(sample(text, 'outbox_lag_seconds'), undefined)
    assert.notEqual(sample(text, 'webhook_deliveries_pending'), undefined)
    assert.notEqual(sample(text, 'process_cpu_user_seconds_total'), undefined)
    assert.notEqual(sample(text, 'nodejs_eventloop_lag_seconds'), undefined)
    if (process.env.REDIS_URL) assert.notEqual(sample(text, 'redis_round_trip_seconds'), undefined)
  })

  it('answers 503 with Retry-After and a problem at once when the event loop stalls; health and metrics still answer', async () => {
    const api = clientFor(app.api, merchant.token)
    // A stall of the process's event loop, as a CPU-bound burst would cause.
    const until = Date.now() + 1_200
    while (Date.now() < until) {}
    await new Promise((resolve) => setTimeout(resolve, 0))
    const shed = await api.get('/api/v1/products?limit=1')
    assert.equal(shed.status, 503)
    assert.equal(shed.headers['retry-after'], '1')
    assert.match(String(shed.headers['content-type']), /application\/problem\+json/)
    assert.equal(shed.body.code, 'UNAVAILABLE')
    assert.equal((await app.api.inject({ method: 'GET', url: '/healthz' })).statusCode, 200)
    assert.equal((await scrape('scrape-secret')).statusCode, 200)
    // Once the loop is quiet again, requests are served.
    await new Promise((resolve) => setTimeout(resolve, 800))
    assert.equal((await api.get('/api/v1/products?limit=1')).status, 200)
  })

  // Last: its scrapes keep the event loop busy, which sheds the API requests that would follow (not /metrics).
  it("reads the database's figures once per METRICS_SNAPSHOT_MS, however many scrapes come", async () => {
    // Before, each scrape ran the cross-org query: a scraper in a loop made the database scan every queue.
    await Promise.all(Array.from({ length: 20 }, () => scrape('scrape-secret')))
    for (let i = 0; i < 10; i++) assert.equal((await scrape('scrape-secret')).statusCode, 200)
    assert.equal(sample((await scrape('scrape-secret')).body, 'metrics_snapshot_reads_total'), 1)
    // Refused scrapes read nothing at all.
    for (let i = 0; i < 10; i++) assert.equal((await scrape('wrong')).statusCode, 401)
    assert.equal(sample((await scrape('scrape-secret')).body, 'metrics_snapshot_reads_total'), 1)
  })
})
