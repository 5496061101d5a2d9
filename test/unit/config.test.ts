import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { loadCheckedConfig, loadConfig, productionProblems } from '../../src/config.ts'

describe('configuration', () => {
  const production = {
    NODE_ENV: 'production',
    SEED_DEMO: 'false',
    BASE_URL: 'https://api.shop.example',
    APP_URL: 'https://app.shop.example',
    SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
    METRICS_TOKEN: 'scrape-secret',
  }

  it('refuses in production what only a developer machine may run, one line naming each variable', () => {
    const problems = (env: NodeJS.ProcessEnv) => productionProblems(env, loadConfig(env))
    assert.deepEqual(problems(production), [])
    assert.deepEqual(problems({ NODE_ENV: 'production' }), [
      'SEED_DEMO must be false in production: the demo org has a published password',
      'SECRETS_KEY must be set in production: webhook secrets and signing keys are sealed with it',
      "METRICS_TOKEN must be set in production: /metrics shows every org's traffic and the database's state",
      'BASE_URL must be set in production: the public https address clients use',
      'APP_URL must be set in production: the public https address clients use',
    ])
    assert.deepEqual(problems({ ...production, BASE_URL: 'http://api.shop.example' }), [
      'BASE_URL must be an https address in production (got http://api.shop.example)',
    ])
    // A loopback address may be plain http (a proxy on the same machine terminates TLS).
    assert.deepEqual(problems({ ...production, APP_URL: 'http://127.0.0.1:3001' }), [])
    // Outside production nothing is refused.
    assert.deepEqual(problems({ NODE_ENV: 'development' }), [])
    assert.throws(() => loadCheckedConfig({ NODE_ENV: 'production', SEED_DEMO: 'false' }), /BASE_URL must be set/)
  })

  it('reads TRUST_PROXY as off, on, a hop count or a list of proxies', () => {
    assert.equal(loadConfig({}).trustProxy, false)
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5' }).trustProxy, ['10.0.0.0/8', '192.168.1.5'])
    const hops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (a: string, hop: number) => boolean
    assert.deepEqual([hops('10.0.0.1', 0), hops('10.0.0.1', 1), hops('10.0.0.1', 2)], [true, true, false])
    assert.equal(loadConfig({}).shutdownTimeoutMs, 25_000)
    assert.equal(loadConfig({ SHUTDOWN_TIMEOUT_MS: '5000' }).shutdownTimeoutMs, 5000)
  })

  it('reads the kitchen feed and pool settings in one place, refusing zero', () => {
    assert.deepEqual(loadConfig({}).kds, {
      heartbeatMs: 15_000,
      pollMs: 100,
      reconcileMs: 5_000,
      maxStreamsPerOrg: 50,
      maxStreamsPerCredential: 10,
    })
    assert.equal(loadConfig({ KDS_MAX_STREAMS_PER_ORG: '3' }).kds.maxStreamsPerOrg, 3)
    assert.equal(loadConfig({}).databasePoolMax, 20)
    assert.throws(() => loadConfig({ KDS_HEARTBEAT_MS: '0' }), /KDS_HEARTBEAT_MS must be a positive integer/)
    assert.throws(() => loadConfig({ DATABASE_POOL_MAX: 'many' }), /DATABASE_POOL_MAX/)
  })
})
