import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startTestApp, type TestApp } from '../../support/harness.ts'

/** Sign-in attempts from one address share a bucket (CREDENTIAL_LIMITS.loginPerAddress: a burst of 120). */
const BURST = 120

/** Attempts until the address is refused (at most a burst and a half); answers every status. */
async function attempts(app: TestApp, n: number, forwardedFor: string) {
  const statuses: number[] = []
  for (let i = 0; i < n && statuses.at(-1) !== 429; i++) {
    const res = await app.api.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: `nobody-${i}-${Math.random()}@example.test`, password: 'wrong-password' },
    })
    statuses.push(res.statusCode)
  }
  return statuses
}

describe('behind a proxy (TRUST_PROXY)', () => {
  let trusting: TestApp
  let plain: TestApp

  before(async () => {
    trusting = await startTestApp({ TRUST_PROXY: '1' })
    plain = await startTestApp()
  })
  after(async () => {
    await trusting.close()
    await plain.close()
  })

  it('limits each client address named by the proxy, not the proxy’s own address', async () => {
    const first = await attempts(trusting, BURST * 1.5, '203.0.113.7')
    assert.equal(first.at(-1), 429)
    assert.ok(first.length > BURST, `refused after ${first.length - 1} attempts`)
    // Another client behind the same proxy has a bucket of its own.
    assert.deepEqual(await attempts(trusting, 1, '203.0.113.8'), [401])
  })

  it('ignores X-Forwarded-For when no proxy is trusted, so a client cannot pick its own address', async () => {
    const statuses = await attempts(plain, BURST * 1.5, '198.51.100.1')
    assert.equal(statuses.at(-1), 429)
    // The same bucket: refused within a few attempts (it refills one a second, so a busy machine may let one or two
    // through), where a bucket of its own would take a burst of them.
    const other = await attempts(plain, 10, '198.51.100.2')
    assert.equal(other.at(-1), 429, `another address answered ${other.join(', ')}`)
  })
})
