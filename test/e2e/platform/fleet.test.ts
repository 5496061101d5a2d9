import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { eventually } from '../../support/eventually.ts'
import { scratchServerDatabase } from '../../support/harness.ts'
import { HttpsReceiver, testPki } from '../../support/https-receiver.ts'
import { OpentillProcesses, prepareOrg } from '../../support/processes.ts'

const run = promisify(execFile)
const skip = process.env.REDIS_URL ? false : 'a fleet shares its state through Redis: REDIS_URL is not set'

/**
 * Two `opentill serve` processes and one `opentill worker` on one PostgreSQL and one Redis, as the production
 * layout runs them (README "Production layout"): what one instance does, the other sees at once.
 */
describe('a fleet of two API instances and a worker', { skip }, () => {
  const processes = new OpentillProcesses()
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  let env: NodeJS.ProcessEnv
  const instances: string[] = []
  let orgId: string
  let credentials: { email: string; password: string }
  let receiver: HttpsReceiver

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch, 'the fleet runs on a PostgreSQL server')
    env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: scratch.url,
      SEED_DEMO: 'false',
      WORKERS: 'false',
      LOG_LEVEL: 'warn',
      // The test's webhook receiver is on loopback, which the fleet must be allowed to reach.
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
      BASE_URL: 'https://api.fleet.example',
      APP_URL: 'https://app.fleet.example',
    }
    // Migrated and seeded by the test itself, as a deploy step would before starting the processes.
    const owner = await prepareOrg(env, { name: 'Fleet', plan: 'starter' })
    orgId = owner.orgId
    credentials = { email: owner.email, password: owner.password }
    // One public address for the fleet (the load balancer's): tokens of one instance are the other's too.
    for (let i = 0; i < 2; i++) instances.push((await processes.serve(env)).url)
    // The worker trusts the test receiver's private CA, as NODE_EXTRA_CA_CERTS would make a real one trusted.
    receiver = await new HttpsReceiver().start()
    const ca = join(tmpdir(), `opentill-fleet-ca-${process.pid}.pem`)
    writeFileSync(ca, testPki().ca)
    await processes.start('worker', { ...env, NODE_EXTRA_CA_CERTS: ca, WEBHOOK_RETRY_DELAYS: '' })
  })
  after(async () => {
    await processes.stopAll()
    await receiver?.close()
    await scratch?.drop()
  })

  const [A, B] = [0, 1]
  const call = (i: number, method: string, path: string, token?: string, body?: unknown) =>
    fetch(`${instances[i]}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  async function login(i: number) {
    const res = await call(i, 'POST', '/api/v1/auth/login', undefined, credentials)
    assert.equal(res.status, 200)
    return ((await res.json()) as { data: { accessToken: string } }).data.accessToken
  }

  it('refuses a token on one instance the moment it is revoked on the other', async () => {
    const token = await login(A)
    assert.equal((await call(B, 'GET', '/api/v1/products?limit=1', token)).status, 200)
    assert.equal((await call(A, 'POST', '/api/v1/auth/logout', token, {})).status, 204)
    assert.equal((await call(B, 'GET', '/api/v1/products?limit=1', token)).status, 401)
  })

  it('refuses a deactivated cashier on the other instance at once, refresh token included', async () => {
    const owner = await login(A)
    // Invited on A (no SMTP: the link comes back), accepted on B, signed in on B.
    const invited = await call(A, 'POST', '/api/v1/users', owner, { email: 'cashier@fleet.example', role: 'staff' })
    assert.equal(invited.status, 201)
    const { url } = ((await invited.json()) as { data: { url: string } }).data
    const token = url.split('/').pop()
    const accepted = await call(B, 'POST', '/api/v1/auth/invitations/accept', undefined, {
      token,
      password: 'a long cashier passphrase',
    })
    assert.equal(accepted.status, 200)
    const { user_id: userId } = ((await accepted.json()) as { data: { user_id: string } }).data
    const signedIn = await call(B, 'POST', '/api/v1/auth/login', undefined, {
      email: 'cashier@fleet.example',
      password: 'a long cashier passphrase',
    })
    const session = ((await signedIn.json()) as { data: { accessToken: string; refreshToken: string } }).data
    assert.equal((await call(B, 'GET', '/api/v1/orders?limit=1', session.accessToken)).status, 200)

    assert.equal((await call(A, 'PATCH', `/api/v1/users/${userId}`, owner, { active: false })).status, 200)
    assert.equal((await call(B, 'GET', '/api/v1/orders?limit=1', session.accessToken)).status, 401)
    const refresh = await call(B, 'POST', '/api/v1/auth/refresh', undefined, { refreshToken: session.refreshToken })
    assert.equal(refresh.status, 401)
  })

  it('shows an order made on one instance on the other’s kitchen feed', async () => {
    const token = await login(A)
    const location = (await (await call(A, 'POST', '/api/v1/locations', token, { name: 'Fleet shop' })).json()) as {
      data: { id: string }
    }
    const product = (await (
      await call(A, 'POST', '/api/v1/products', token, { name: 'Soup', sku: 'fleet-soup', base_price: 6 })
    ).json()) as { data: { id: string } }
    await call(A, 'POST', '/api/v1/inventory/adjust', token, {
      product_id: product.data.id,
      location_id: location.data.id,
      quantity: 10,
      reason: 'received',
    })
    const stream = await call(B, 'GET', '/api/v1/kds/stream', token)
    assert.equal(stream.status, 200)
    const reader = stream.body!.getReader()
    const order = (await (
      await call(A, 'POST', '/api/v1/orders', token, {
        location_id: location.data.id,
        lines: [{ product_id: product.data.id, quantity: 1 }],
      })
    ).json()) as { data: { id: string } }
    let text = ''
    const deadline = Date.now() + 15_000
    while (!text.includes(order.data.id)) {
      assert.ok(Date.now() < deadline, `the order never reached the other instance's feed: ${text}`)
      const { value, done } = await reader.read()
      if (done) break
      text += new TextDecoder().decode(value)
    }
    assert.match(text, /event: order\.created/)
    await reader.cancel()
  })

  it('sends each webhook once, whichever instance committed the event', async () => {
    const token = await login(A)
    const integration = (await (
      await call(A, 'POST', '/api/v1/integrations', token, { name: 'Books', type: 'accounting' })
    ).json()) as { data: { id: string } }
    const hook = await call(B, 'POST', `/api/v1/integrations/${integration.data.id}/webhooks`, token, {
      url: receiver.url('/fleet'),
      events: ['customer.created'],
    })
    assert.equal(hook.status, 201)
    const made: string[] = []
    for (let i = 0; i < 6; i++) {
      const res = await call(i % 2, 'POST', '/api/v1/customers', token, {
        first_name: `F${i}`,
        email: `f${i}@fleet.example`,
      })
      made.push(((await res.json()) as { data: { id: string } }).data.id)
    }
    await receiver.waitFor((all) => all.filter((r) => r.path === '/fleet').length >= made.length, 30_000)
    await new Promise((r) => setTimeout(r, 1_000))
    const ids = receiver.on('/fleet').map((r) => JSON.parse(r.body).data.id as string)
    assert.deepEqual([...ids].sort(), [...made].sort())
  })

  it('shares a Starter org’s burst across both instances, and applies set-org-limits on both without a restart', async () => {
    const token = await login(B)
    const started = Date.now()
    let allowed = 0
    let refused = 0
    for (let i = 0; i < 400 && refused === 0; i++) {
      const status = (await call(i % 2, 'GET', '/api/v1/products?limit=1', token)).status
      if (status === 429) refused++
      else allowed++
    }
    assert.equal(refused, 1)
    // The burst of 150 less the dozen requests the tests above made, plus what the rate (100 a minute) refilled
    // while the loop ran: one bucket, not one per instance (that would allow about 300).
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * 100)
    assert.ok(allowed >= 130 && allowed <= 150 + refilled, `${allowed} allowed across both (${refilled} refilled)`)
    const { stdout } = await run(
      process.execPath,
      ['bin/opentill.js', 'set-org-limits', '--org', orgId, '--per-minute', '60000', '--burst', '60000'],
      { env },
    )
    assert.deepEqual(JSON.parse(stdout), { orgId, perMinute: 60000, burst: 60000 })
    // Both instances answer with the new limit once their copy of the org's limits (kept a second) is renewed (the
    // bucket keeps the debt it ran up meanwhile: GCRA's state is a time, not a count, so a raised limit frees
    // requests as that time passes, not at once).
    for (const i of [A, B]) {
      await eventually(async () => {
        const res = await call(i, 'GET', '/api/v1/products?limit=1', token)
        assert.equal(res.headers.get('x-ratelimit-limit'), '60000')
      })
    }
  })
})
