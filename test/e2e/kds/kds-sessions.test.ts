import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

/** A kitchen stream read as raw text: what it sent, and whether the server ended it. */
async function stream(base: string, token: string) {
  const abort = new AbortController()
  const res = await fetch(`${base}/api/v1/kds/stream`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  })
  let text = ''
  let ended = false
  const reading =
    res.status === 200
      ? (async () => {
          const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
            if (done) break
            text += value
          }
          ended = true
        })()
      : res.text().then((body) => {
          text = body
          ended = true
        })
  return {
    status: res.status,
    res,
    /** The screen goes away (its connection closes). */
    leave: () => abort.abort(),
    get text() {
      return text
    },
    get ended() {
      return ended
    },
    reading,
  }
}

/**
 * An app with `env` listening on loopback for the suite it is called in, a merchant of it, and a fresh sign-in of
 * that merchant's owner at each `login()`.
 */
function kitchenOf(env: Record<string, string>) {
  const kitchen = {
    app: undefined as unknown as TestApp,
    base: '',
    merchant: undefined as unknown as Merchant,
    login: async () =>
      (
        await clientFor(kitchen.app.api).post('/api/v1/auth/login', {
          email: kitchen.merchant.email,
          password: kitchen.merchant.password,
        })
      ).body.data.accessToken as string,
  }
  before(async () => {
    kitchen.app = await startTestApp(env)
    kitchen.base = await kitchen.app.api.listen({ port: 0, host: '127.0.0.1' })
    kitchen.merchant = await createMerchant(kitchen.app)
  })
  after(() => kitchen.app.close())
  return kitchen
}

/** Kitchen streams end with their credential (issue 14 item 6), and an org holds a bounded number of them. */
describe('a kitchen stream whose token expires', () => {
  // Five seconds: long enough for a sign-in and a stream on a busy machine (exp is a whole second, so a token of
  // two could live one), short enough to wait for.
  const kitchen = kitchenOf({ ACCESS_TOKEN_TTL_S: '5', KDS_HEARTBEAT_MS: '100' })

  it('ends a stream when its token expires', async () => {
    const token = await kitchen.login()
    const expiresAt = expiryOf(token)
    const screen = await stream(kitchen.base, token)
    assert.equal(screen.status, 200)
    await screen.reading
    assert.match(screen.text, /event: session_ended\ndata: \{"reason":"expired"\}/)
    // Ended by the expiry (not before it, give or take a timer's millisecond), at a heartbeat after it rather than
    // at some later sweep.
    const endedAt = Date.now()
    assert.ok(endedAt >= expiresAt - 50, 'not before the token expired')
    assert.ok(endedAt < expiresAt + 30_000, 'soon after the token expired')
  })
})

/** The token's `exp`, in milliseconds since the epoch. */
function expiryOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number }
  return payload.exp * 1000
}

/**
 * Revocation and the limits on open streams, with tokens that outlive the tests (a stream that ended with its token
 * would end for the wrong reason, or free a seat the test counts as taken): each screen goes away when the test says.
 */
describe('kitchen streams, their sessions and the streams an org and a credential may hold', () => {
  const kitchen = kitchenOf({
    KDS_HEARTBEAT_MS: '100',
    KDS_MAX_STREAMS_PER_ORG: '2',
    KDS_MAX_STREAMS_PER_CREDENTIAL: '1',
  })
  const { login } = kitchen

  it('ends a stream at the next heartbeat after its session is revoked', async () => {
    const token = await login()
    const screen = await stream(kitchen.base, token)
    assert.equal(screen.status, 200)
    assert.equal((await clientFor(kitchen.app.api, token).post('/api/v1/auth/logout', {})).status, 204)
    await screen.reading
    assert.match(screen.text, /event: session_ended\ndata: \{"reason":"revoked"\}/)
  })

  it('refuses a third open stream of an org with a 429, and takes one again when a stream closes', async () => {
    const [a, b] = [await stream(kitchen.base, await login()), await stream(kitchen.base, await login())]
    assert.deepEqual([a.status, b.status], [200, 200])
    const third = await stream(kitchen.base, await login())
    await third.reading
    assert.equal(third.status, 429)
    assert.equal(JSON.parse(third.text).code, 'KDS_STREAM_LIMIT')
    assert.ok(third.res.headers.get('retry-after'))
    // Another org is not counted against this one.
    const other = await createMerchant(kitchen.app)
    const elsewhere = await stream(kitchen.base, other.token)
    assert.equal(elsewhere.status, 200)
    a.leave()
    await a.reading
    // The server frees the seat when it sees the connection close, which the client cannot wait on: ask until it has
    // (with one token: a sign-in per attempt would run into the account's login limit).
    const token = await login()
    const again = await eventually(async () => {
      const screen = await stream(kitchen.base, token)
      if (screen.status !== 200) await screen.reading
      assert.equal(screen.status, 200, screen.text)
      return screen
    })
    for (const screen of [b, again, elsewhere]) screen.leave()
    await Promise.all([b.reading, again.reading, elsewhere.reading])
  })

  it("refuses a credential's second stream with a 429, so one token cannot take the org's every seat", async () => {
    // Before, one token could open every seat of the org (KDS_MAX_STREAMS_PER_ORG) and lock its kitchen out.
    const token = await login()
    const first = await stream(kitchen.base, token)
    assert.equal(first.status, 200)
    const second = await stream(kitchen.base, token)
    await second.reading
    assert.equal(second.status, 429)
    assert.equal(JSON.parse(second.text).code, 'KDS_CREDENTIAL_STREAM_LIMIT')
    assert.ok(second.res.headers.get('retry-after'))
    // Another screen of the org, with its own credential, still gets the seat left.
    const other = await stream(kitchen.base, await login())
    assert.equal(other.status, 200)
    first.leave()
    other.leave()
    await Promise.all([first.reading, other.reading])
  })
})
