import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { type Revocations, revokedKey } from '../../../src/platform/crypto/revocations.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { createAdmissions } from '../../../src/platform/rate-limit/admission.ts'
import { gcra, MemoryRateLimitStore, RedisRateLimitStore } from '../../../src/platform/rate-limit/index.ts'
import {
  type Call,
  clientFor,
  createMerchant,
  type Merchant,
  startTestApp,
  type TestApp,
} from '../../support/harness.ts'

describe('rate limits', () => {
  let app: TestApp
  let merchant: Merchant
  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app, { plan: 'starter' })
  })
  after(() => app.close())

  /** Calls until the first 429; `elapsedMs` lets a test allow for the tokens refilled meanwhile. */
  async function untilRefused(
    call: () => Promise<Call>,
    max: number,
  ): Promise<{ allowed: Call[]; refused: Call; elapsedMs: number }> {
    const allowed: Call[] = []
    const started = Date.now()
    for (let i = 0; i < max; i++) {
      const res = await call()
      if (res.status === 429) return { allowed, refused: res, elapsedMs: Date.now() - started }
      allowed.push(res)
    }
    throw new Error(`no 429 within ${max} requests`)
  }

  /** The burst plus what the rate refilled while the loop ran. */
  const atMost = (burst: number, perMinute: number, elapsedMs: number) =>
    burst + Math.ceil((elapsedMs * perMinute) / 60_000) + 1

  it('applies an org’s custom limits (set-org-limits) within a second', async () => {
    const custom = await createMerchant(app, { plan: 'pro' })
    const api = clientFor(app.api, custom.token)
    assert.equal((await api.get('/api/v1/products?limit=1')).status, 200)
    const set = await app.services.orgs.setCustomLimits(
      systemContext(app.runtime.database, custom.orgId, MERCHANT_SCOPES),
      6,
      4,
    )
    assert.deepEqual(set, { orgId: custom.orgId, perMinute: 6, burst: 4 })
    await new Promise((r) => setTimeout(r, 1_100))
    const { allowed, refused } = await untilRefused(() => api.get('/api/v1/products?limit=1'), 20)
    assert.ok(allowed.length <= 5, `${allowed.length} allowed`)
    assert.equal(refused.headers['x-ratelimit-limit'], '6')
  })

  it('limits revocation and introspection per client like the token endpoint', async () => {
    for (const [path, address] of [
      ['/api/v1/oauth/introspect', '192.0.2.10'],
      ['/api/v1/oauth/revoke', '192.0.2.11'],
    ]) {
      const clientId = `guesser-${randomBytes(4).toString('hex')}`
      const call = async () => {
        // An address of its own, so this test does not spend the token endpoint's per-address budget.
        const res = await app.api.inject({
          method: 'POST',
          url: path,
          remoteAddress: address,
          payload: { client_id: clientId, client_secret: 'wrong', token: 'x' },
        })
        return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res } as Call
      }
      const { allowed, refused, elapsedMs } = await untilRefused(call, 400)
      assert.ok(
        allowed.length >= 240 && allowed.length <= atMost(240, 120, elapsedMs),
        `${path}: ${allowed.length} before the 429 in ${elapsedMs} ms`,
      )
      assert.ok(Number(refused.headers['retry-after']) >= 1)
    }
  })

  it('gives a Starter org 100 per minute with a burst of 150, then 429 with Retry-After', async () => {
    const api = clientFor(app.api, merchant.token)
    const { allowed, refused, elapsedMs } = await untilRefused(() => api.get('/api/v1/products?limit=1'), 400)
    // The bucket refills 1 token per 600 ms while the loop runs, so a few more than 150 may pass.
    assert.ok(
      allowed.length >= 150 && allowed.length <= atMost(150, 100, elapsedMs),
      `allowed ${allowed.length} in ${elapsedMs} ms`,
    )
    assert.equal(allowed[0].headers['x-ratelimit-limit'], '100')
    assert.equal(allowed[0].headers['x-ratelimit-remaining'], '149')
    assert.equal(refused.headers['x-ratelimit-limit'], '100')
    assert.equal(refused.headers['x-ratelimit-remaining'], '0')
    assert.equal(refused.headers['retry-after'], '1')
    assert.equal(refused.body.type, 'https://errors.opentill.dev/rate-limited')
    assert.equal(refused.body.status, 429)

    const other = await createMerchant(app)
    assert.equal(
      (await clientFor(app.api, other.token).get('/api/v1/products')).status,
      200,
      'another org has its own bucket',
    )
  })

  it("takes an Enterprise org's own figures", async () => {
    const big = await createMerchant(app)
    await app.runtime.database.transaction(big.orgId, (q) =>
      q.query("UPDATE orgs SET plan = 'enterprise', rate_limit_per_minute = 10, rate_limit_burst = 3 WHERE id = $1", [
        big.orgId,
      ]),
    )
    const api = clientFor(app.api, big.token)
    const { allowed, refused, elapsedMs } = await untilRefused(() => api.get('/api/v1/products'), 10)
    // A token comes back every 6 s: the burst of 3, and one more for each 6 s the loop took.
    assert.ok(allowed.length >= 3 && allowed.length <= atMost(3, 10, elapsedMs), `${allowed.length} allowed`)
    assert.equal(allowed[0].headers['x-ratelimit-limit'], '10')
    const retryAfter = Number(refused.headers['retry-after'])
    assert.ok(retryAfter >= 1 && retryAfter <= 6, `retry-after ${retryAfter}`)
  })

  it('limits login attempts per account, whatever the password', async () => {
    const api = clientFor(app.api)
    const target = await createMerchant(app)
    const { allowed, refused, elapsedMs } = await untilRefused(
      () => api.post('/api/v1/auth/login', { email: target.email, password: 'guess' }),
      20,
    )
    // createMerchant's own login took one of the 10; a token comes back every 12 s while the loop runs.
    assert.ok(allowed.length >= 9 && allowed.length <= atMost(9, 5, elapsedMs), `${allowed.length} allowed`)
    assert.ok(allowed.every((r) => r.status === 401))
    assert.ok(Number(refused.headers['retry-after']) >= 1)
    // The right password is refused too: at once, or within the token or two that refill meanwhile.
    const right = await untilRefused(
      () => api.post('/api/v1/auth/login', { email: target.email, password: target.password }),
      3,
    )
    assert.equal(right.refused.status, 429)
    assert.equal(
      (await api.post('/api/v1/auth/login', { email: merchant.email, password: merchant.password })).status,
      200,
    )
  })

  it('limits token requests per client with an RFC 6749 error body', async () => {
    const ctx = systemContext(app.runtime.database, merchant.orgId, MERCHANT_SCOPES)
    const { app: client } = await app.services.oauth.apps.create(ctx, {
      name: 'Noisy',
      redirectUris: ['https://n.example/cb'],
    })
    const api = clientFor(app.api)
    const { allowed, refused, elapsedMs } = await untilRefused(
      () =>
        api.post('/api/v1/oauth/token', {
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: 'wrong',
        }),
      300,
    )
    assert.ok(allowed.length >= 240 && allowed.length <= atMost(240, 120, elapsedMs), `allowed ${allowed.length}`)
    assert.equal(refused.body.error, 'temporarily_unavailable')
    assert.ok(Number(refused.headers['retry-after']) >= 1)
  })
})

describe('the GCRA bucket', () => {
  it('holds the burst, refills at the rate, and says when a token is back', async () => {
    let now = 1_000_000
    const store = new MemoryRateLimitStore(() => now)
    const limit = { perMinute: 60, burst: 2 }
    assert.deepEqual(await store.take('k', limit), { allowed: true, limit: 60, remaining: 1, retryAfterMs: 0 })
    assert.equal((await store.take('k', limit)).remaining, 0)
    const refused = await store.take('k', limit)
    assert.equal(refused.allowed, false)
    assert.equal(refused.retryAfterMs, 1000)
    now += 1000
    assert.equal((await store.take('k', limit)).allowed, true)
    now += 60_000
    assert.equal((await store.take('k', limit)).remaining, 1, 'a long pause refills only up to the burst')
  })

  it('never stores a refusal, so a blocked client is not pushed further back', () => {
    const limit = { perMinute: 60, burst: 1 }
    const first = gcra(limit, null, 0)
    const refused = gcra(limit, first.tat, 10)
    assert.equal(refused.decision.allowed, false)
    assert.equal(refused.tat, first.tat)
  })

  it('shares one bucket through Redis', { skip: process.env.REDIS_URL ? false : 'REDIS_URL is not set' }, async () => {
    const redis = new Redis(process.env.REDIS_URL!)
    try {
      const namespace = `test-${randomBytes(6).toString('hex')}`
      const a = new RedisRateLimitStore(redis, namespace)
      const b = new RedisRateLimitStore(redis, namespace)
      // One token a minute, so none comes back while the test runs (Redis's clock cannot be stopped).
      const limit = { perMinute: 1, burst: 2 }
      assert.equal((await a.take('k', limit)).remaining, 1)
      assert.equal((await b.take('k', limit)).remaining, 0)
      const refused = await a.take('k', limit)
      assert.equal(refused.allowed, false)
      assert.ok(refused.retryAfterMs > 50_000 && refused.retryAfterMs <= 60_000, `${refused.retryAfterMs} ms`)
    } finally {
      redis.disconnect()
    }
  })

  it('admits the requests of one turn in one script call, each as if alone', {
    skip: process.env.REDIS_URL ? false : 'REDIS_URL is not set',
  }, async () => {
    const redis = new Redis(process.env.REDIS_URL!)
    try {
      const namespace = `test-${randomBytes(6).toString('hex')}`
      // The script reads the marks in Redis itself; this port only says they are restored.
      const marksInRedis: Revocations = {
        restored: async () => {},
        isRevoked: async () => false,
        revoke: async () => {},
      }
      const admissions = createAdmissions({
        redis,
        deploymentName: namespace,
        revocations: marksInRedis,
        rateLimitStore: new MemoryRateLimitStore(),
        catalogCache: null,
      })
      await redis.set(revokedKey(namespace, 'revoked-session'), '1')
      const limit = { perMinute: 60, burst: 3 }
      // Script calls counted on this test's own connection (Redis's own statistics count every test file's).
      let scriptCalls = 0
      const send = redis.sendCommand.bind(redis)
      redis.sendCommand = (command, stream) => {
        if (command.name === 'evalsha' || command.name === 'eval') scriptCalls++
        return send(command, stream)
      }
      // The first call loads the script (EVALSHA refused, then EVAL): counted from the second turn on.
      await admissions.admit({ sessionId: 's', orgId: 'org_c', limit })
      scriptCalls = 0
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => admissions.admit({ sessionId: 's', orgId: 'org_a', limit })),
        admissions.admit({ sessionId: 'revoked-session', orgId: 'org_a', limit }),
        admissions.admit({ sessionId: 's', orgId: 'org_b', limit: null }),
      ])
      assert.equal(scriptCalls, 1, 'one script call for the turn')
      assert.deepEqual(
        answers.slice(0, 5).map((a) => [a.decision?.allowed, a.decision?.remaining]),
        [
          [true, 2],
          [true, 1],
          [true, 0],
          [false, 0],
          [false, 0],
        ],
        "one org's bucket taken in turn",
      )
      assert.deepEqual(answers[5], { revoked: true, decision: null, catalogVersion: null })
      assert.equal(answers[6].decision, null, 'no limit asked, no token taken')
      assert.match(answers[6].catalogVersion ?? '', /^\d+$/)
      assert.equal(answers[0].catalogVersion, answers[4].catalogVersion)
    } finally {
      redis.disconnect()
    }
  })

  it('without Redis, admits a turn together, each as if alone, and a failed check fails its own request only', async () => {
    let checks = 0
    // A server without Redis reads revocations from the database: one read may fail (a statement timeout).
    const revocations: Revocations = {
      restored: async () => {},
      isRevoked: async (sessionId) => {
        checks++
        if (sessionId === 'failing-check') throw new Error('canceling statement due to statement timeout')
        return sessionId === 'revoked-session'
      },
      revoke: async () => {},
    }
    const admissions = createAdmissions({
      redis: undefined,
      deploymentName: 'test',
      revocations,
      rateLimitStore: new MemoryRateLimitStore(),
      catalogCache: null,
    })
    const limit = { perMinute: 60, burst: 3 }
    const asked = [
      ...Array.from({ length: 4 }, () => admissions.admit({ sessionId: 's', orgId: 'org_a', limit })),
      admissions.admit({ sessionId: 'failing-check', orgId: 'org_a', limit }),
      admissions.admit({ sessionId: 'revoked-session', orgId: 'org_a', limit }),
      admissions.admit({ sessionId: 's', orgId: 'org_b', limit: null }),
    ]
    assert.equal(checks, 0, 'nothing is asked before the turn ends')
    const answers = await Promise.allSettled(asked)
    assert.equal(checks, 7)
    assert.deepEqual(
      answers
        .slice(0, 4)
        .map((a) => a.status === 'fulfilled' && [a.value.decision?.allowed, a.value.decision?.remaining]),
      [
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ],
      "one org's bucket taken in turn",
    )
    assert.equal(answers[4].status, 'rejected')
    assert.match(String((answers[4] as PromiseRejectedResult).reason), /statement timeout/)
    assert.deepEqual(answers[5], {
      status: 'fulfilled',
      value: { revoked: true, decision: null, catalogVersion: null },
    })
    assert.deepEqual(answers[6], {
      status: 'fulfilled',
      value: { revoked: false, decision: null, catalogVersion: null },
    })
  })
})
