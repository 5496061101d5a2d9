import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
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

/** Kitchen streams end with their credential (issue 14 item 6), and an org holds a bounded number of them. */
describe('kitchen streams and their credentials', () => {
  let app: TestApp
  let base: string
  let merchant: Merchant

  before(async () => {
    app = await startTestApp({
      ACCESS_TOKEN_TTL_S: '2',
      KDS_HEARTBEAT_MS: '100',
      KDS_MAX_STREAMS_PER_ORG: '2',
      KDS_MAX_STREAMS_PER_CREDENTIAL: '1',
    })
    await app.api.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(app.api.server.address() as AddressInfo).port}`
    merchant = await createMerchant(app)
  })
  after(() => app.close())

  const login = async () =>
    (await clientFor(app.api).post('/api/v1/auth/login', { email: merchant.email, password: merchant.password })).body
      .data.accessToken as string

  it('ends a stream at the next heartbeat after its session is revoked', async () => {
    const token = await login()
    const screen = await stream(base, token)
    assert.equal(screen.status, 200)
    assert.equal((await clientFor(app.api, token).post('/api/v1/auth/logout', {})).status, 204)
    await screen.reading
    assert.match(screen.text, /event: session_ended\ndata: \{"reason":"revoked"\}/)
  })

  it('ends a stream when its token expires', async () => {
    const token = await login()
    // Counted from the token's issue, which expires it at most two seconds on (a slow login must not eat the margin).
    const started = Date.now()
    const screen = await stream(base, token)
    assert.equal(screen.status, 200)
    await screen.reading
    assert.match(screen.text, /event: session_ended\ndata: \{"reason":"expired"\}/)
    assert.ok(Date.now() - started < 5_000, 'ended at the two-second expiry, not later')
  })

  it('refuses a third open stream of an org with a 429, and takes one again when a stream closes', async () => {
    // Tokens last two seconds here: each stream gets a fresh one and the checks run well within it.
    const [a, b] = [await stream(base, await login()), await stream(base, await login())]
    assert.deepEqual([a.status, b.status], [200, 200])
    const third = await stream(base, await login())
    await third.reading
    assert.equal(third.status, 429)
    assert.equal(JSON.parse(third.text).code, 'KDS_STREAM_LIMIT')
    assert.ok(third.res.headers.get('retry-after'))
    // Another org is not counted against this one.
    const other = await createMerchant(app)
    const elsewhere = await stream(base, other.token)
    assert.equal(elsewhere.status, 200)
    a.leave()
    await new Promise((r) => setTimeout(r, 200))
    const again = await stream(base, await login())
    assert.equal(again.status, 200)
    await Promise.all([b.reading, again.reading, elsewhere.reading])
  })

  it("refuses a credential's second stream with a 429, so one token cannot take the org's every seat", async () => {
    // Before, one token could open every seat of the org (KDS_MAX_STREAMS_PER_ORG) and lock its kitchen out.
    const token = await login()
    const first = await stream(base, token)
    assert.equal(first.status, 200)
    const second = await stream(base, token)
    await second.reading
    assert.equal(second.status, 429)
    assert.equal(JSON.parse(second.text).code, 'KDS_CREDENTIAL_STREAM_LIMIT')
    assert.ok(second.res.headers.get('retry-after'))
    // Another screen of the org, with its own credential, still gets the seat left.
    const other = await stream(base, await login())
    assert.equal(other.status, 200)
    first.leave()
    other.leave()
    await Promise.all([first.reading, other.reading])
  })
})
