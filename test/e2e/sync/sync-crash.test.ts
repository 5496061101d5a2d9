import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { ulid } from 'ulidx'
import { eventually } from '../../support/eventually.ts'
import { type JsonBody, scratchServerDatabase } from '../../support/harness.ts'
import { OpentillProcesses, prepareOrg } from '../../support/processes.ts'

/**
 * A till's day of offline sales sent while the server is killed (kill -9) half-way through the batch, then sent
 * again to a new process, twice at once: every sale is recorded once and the stock agrees (docs/sync.md).
 */
describe('offline sales across a server killed in the middle of their batch', () => {
  const processes = new OpentillProcesses()
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  let env: NodeJS.ProcessEnv

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch, 'npm test provides a PostgreSQL server (its embedded cluster or DATABASE_URL)')
    env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: scratch.url,
      REDIS_URL: '',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'fatal',
      WORKERS: 'false',
      BASE_URL: 'https://api.sync-crash.example',
      APP_URL: 'https://app.sync-crash.example',
    }
  })
  after(async () => {
    await processes.stopAll()
    await scratch?.drop()
  })

  /** What the database holds, read as its owner. */
  async function owner<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: scratch!.url })
    await client.connect()
    try {
      return (await client.query(sql, params)).rows as T[]
    } finally {
      await client.end()
    }
  }

  it('records each sale once, whatever was committed before the kill', async () => {
    const credentials = await prepareOrg(env, { name: 'Sync crash', unlimited: true })
    const first = await processes.serve(env)
    const call = async (base: string, method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return { status: res.status, body: (await res.json()) as JsonBody }
    }
    const login = await call(first.url, 'POST', '/api/v1/auth/login', undefined, {
      email: credentials.email,
      password: credentials.password,
    })
    const token = login.body.data.accessToken as string
    const location = (await call(first.url, 'POST', '/api/v1/locations', token, { name: 'Shop' })).body.data.id
    const register = (
      await call(first.url, 'POST', '/api/v1/registers', token, { location_id: location, name: 'Till' })
    ).body.data.id
    const product = (
      await call(first.url, 'POST', '/api/v1/products', token, { name: 'Latte', sku: 'L', base_price: 4 })
    ).body.data.id
    await call(first.url, 'POST', '/api/v1/inventory/adjust', token, {
      product_id: product,
      location_id: location,
      quantity: 1000,
      reason: 'received',
    })
    const { code } = (await call(first.url, 'POST', `/api/v1/registers/${register}/pairing`, token, {})).body.data
    const { device_token } = (await call(first.url, 'POST', '/api/v1/devices/pair', undefined, { code })).body.data
    const till = (await call(first.url, 'POST', '/api/v1/devices/token', undefined, { device_token })).body.data
      .access_token as string

    const sales = Array.from({ length: 500 }, (_, i) => ({
      client_sale_id: ulid(),
      sold_at: new Date(Date.now() - (600 - i) * 60_000).toISOString(),
      lines: [
        {
          product_id: product,
          quantity: 1,
          unit_price: 4,
          tax_rate: 0,
          line_subtotal: 4,
          line_discount: 0,
          line_tax: 0,
          line_total: 4,
        },
      ],
      subtotal: 4,
      discount_total: 0,
      tax_total: 0,
      total: 4,
      payments: [{ method: 'cash', amount: 4 }],
    }))
    const recorded = async () =>
      (await owner<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE client_sale_id IS NOT NULL'))[0].n

    // The batch is under way when the process is killed: some sales committed, the answer never came.
    const lost = call(first.url, 'POST', '/api/v1/sync/orders', till, { sales }).catch((error: Error) => error)
    await eventually(async () => assert.ok((await recorded()) >= 50))
    await processes.crashServer(first.pid)
    assert.ok((await lost) instanceof Error, 'the first answer was lost with the process')
    const before = await recorded()
    assert.ok(before < 500, `the kill came after all ${before} sales`)

    const second = await processes.serve(env)
    const [a, b] = await Promise.all([
      call(second.url, 'POST', '/api/v1/sync/orders', till, { sales }),
      call(second.url, 'POST', '/api/v1/sync/orders', till, { sales }),
    ])
    assert.equal(a.status, 200, JSON.stringify(a.body).slice(0, 300))
    assert.equal(b.status, 200)
    for (const answer of [a, b])
      assert.ok(answer.body.data.every((r: { result: string }) => ['recorded', 'already_recorded'].includes(r.result)))
    const newly = [...a.body.data, ...b.body.data].filter((r: { result: string }) => r.result === 'recorded').length
    assert.equal(newly, 500 - before)
    assert.equal(await recorded(), 500)
    const [level] = await owner<{ on_hand: number }>(
      'SELECT on_hand FROM inventory_levels WHERE product_id = $1 AND location_id = $2',
      [product, location],
    )
    assert.equal(level.on_hand, 500)
    const [moved] = await owner<{ n: number }>(
      "SELECT coalesce(sum(quantity), 0)::int AS n FROM inventory_movements WHERE product_id = $1 AND reason = 'sale'",
      [product],
    )
    assert.equal(moved.n, -500)
    const [paid] = await owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM payments p JOIN orders o ON o.org_id = p.org_id AND o.id = p.order_id WHERE o.client_sale_id IS NOT NULL AND p.status = 'captured'",
    )
    assert.equal(paid.n, 500)
  })
})
