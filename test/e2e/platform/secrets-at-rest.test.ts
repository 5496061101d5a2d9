import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import pg from 'pg'
import { loadConfig } from '../../../src/config.ts'
import { rowBinding } from '../../../src/platform/crypto/secret-box.ts'
import { openRuntime } from '../../../src/platform/runtime.ts'
import { createServices } from '../../../src/services.ts'
import { clientFor, scratchServerDatabase } from '../../support/harness.ts'

const run = promisify(execFile)

/**
 * Webhook secrets and token-signing private keys are sealed at rest under SECRETS_KEY (issue 14 item 9): the
 * database never holds them readable, the app still signs with them, and `opentill rotate-secrets-key` moves
 * everything to a new key.
 */
describe('secrets at rest', () => {
  let scratch: Awaited<ReturnType<typeof scratchServerDatabase>>
  const [oldKey, newKey] = [randomBytes(32).toString('base64'), randomBytes(32).toString('base64')]

  before(async () => {
    scratch = await scratchServerDatabase()
    assert.ok(scratch)
  })
  after(() => scratch?.drop())

  const stored = async () => {
    const owner = new pg.Client({ connectionString: scratch!.url })
    await owner.connect()
    try {
      const secrets = (await owner.query('SELECT secret FROM webhook_endpoints')).rows.map((r) => r.secret as string)
      const keys = (await owner.query('SELECT private_jwk FROM signing_keys')).rows.map((r) => r.private_jwk)
      return { secrets, keys }
    } finally {
      await owner.end()
    }
  }

  /** A runtime on the scratch database with `env` (SECRETS_KEY, SECRETS_KEY_PREVIOUS). */
  const runtimeWith = (env: Record<string, string>, migrate = true) =>
    openRuntime(
      loadConfig({ NODE_ENV: 'test', DATABASE_URL: scratch!.url, REDIS_URL: '', LOG_LEVEL: 'silent', ...env }),
      { migrate },
    )

  /** A runtime and API on the scratch database with `env`; registers one webhook and shows it was signed. */
  async function withApp(env: Record<string, string>) {
    const runtime = await runtimeWith(env)
    const { buildApp } = await import('../../../src/app.ts')
    const { api, services } = await buildApp(runtime, createServices(runtime))
    const email = `s-${randomBytes(4).toString('hex')}@example.test`
    await services.orgs.createOrg({
      name: 'Sealed',
      email,
      password: 'sealed-password-1',
      currency: 'USD',
      plan: 'pro',
    })
    const login = await clientFor(api).post('/api/v1/auth/login', { email, password: 'sealed-password-1' })
    assert.equal(login.status, 200, 'the signing key opened and signed a token')
    const client = clientFor(api, login.body.data.accessToken)
    const integration = await client.post('/api/v1/integrations', { name: 'Books', type: 'accounting' })
    const hook = await client.post(`/api/v1/integrations/${integration.body.data.id}/webhooks`, {
      url: 'https://93.184.215.14/hooks',
      events: ['order.created'],
    })
    assert.equal(hook.status, 201)
    await api.close()
    await runtime.close()
    return hook.body.data.secret as string
  }

  it('stores nothing readable with SECRETS_KEY set, and reseals everything under a new key', async () => {
    // Before encryption was turned on: kept as given.
    const plain = await withApp({})
    assert.ok((await stored()).secrets.includes(plain))

    const { stdout: first } = await run(process.execPath, ['bin/opentill.js', 'rotate-secrets-key'], {
      env: { ...process.env, DATABASE_URL: scratch!.url, SECRETS_KEY: oldKey, LOG_LEVEL: 'silent' },
    })
    assert.deepEqual(JSON.parse(first), { webhookSecrets: 1, signingKeys: 1 })
    const sealedOld = await withApp({ SECRETS_KEY: oldKey })
    let now = await stored()
    assert.ok(now.secrets.every((s) => s.startsWith('enc:v2:')))
    assert.ok(!now.secrets.some((s) => s.includes(plain) || s.includes(sealedOld)))
    assert.ok(
      now.keys.every((k) => typeof k.sealed === 'string' && k.d === undefined),
      'no private key in the clear',
    )

    const { stdout: second } = await run(process.execPath, ['bin/opentill.js', 'rotate-secrets-key'], {
      env: {
        ...process.env,
        DATABASE_URL: scratch!.url,
        SECRETS_KEY: newKey,
        SECRETS_KEY_PREVIOUS: oldKey,
        LOG_LEVEL: 'silent',
      },
    })
    assert.deepEqual(JSON.parse(second), { webhookSecrets: 2, signingKeys: 1 })
    now = await stored()
    const kid = now.secrets[0].split(':')[2]
    assert.ok(now.secrets.every((s) => s.startsWith(`enc:v2:${kid}:`)))
    // The new key alone now opens everything: the app starts and signs without the old one.
    await withApp({ SECRETS_KEY: newKey })
  })

  it('binds each sealed secret to its row, and refuses an unsealed one once everything was sealed', async () => {
    const owner = new pg.Client({ connectionString: scratch!.url })
    await owner.connect()
    const runtime = await runtimeWith({ SECRETS_KEY: newKey })
    try {
      // rotate-secrets-key recorded that everything is sealed: this start refuses what is not (it trusted it before).
      assert.equal(runtime.secrets.sealedOnly, true)
      const rows = (await owner.query('SELECT org_id, id, secret FROM webhook_endpoints ORDER BY id')).rows
      assert.ok(rows.length >= 2)
      const [a, b] = rows
      const bindingOf = (row: { org_id: string; id: string }) => rowBinding('webhook_endpoints', row.org_id, row.id)
      assert.match(runtime.secrets.open(a.secret, bindingOf(a)), /^whsec_/)
      // Another org's sealed secret copied into this row does not open here (before: it signed as this endpoint).
      assert.throws(() => runtime.secrets.open(a.secret, bindingOf(b)))
      assert.throws(() => runtime.secrets.open('whsec_written_in_clear', bindingOf(a)), /not sealed and bound/)
      const unbound = (await owner.query('SELECT private_jwk FROM signing_keys')).rows[0].private_jwk
      assert.equal(typeof unbound.sealed, 'string')
      // A start with a key that sealed none of it is refused at once, naming the key that did.
      await assert.rejects(
        runtimeWith({ SECRETS_KEY: randomBytes(32).toString('base64') }, false),
        /the stored secrets were sealed with key [0-9a-f]{16}, which neither SECRETS_KEY/,
      )
      // The app refuses to start on a signing key written back in the clear.
      await owner.query(`UPDATE signing_keys SET private_jwk = '{"kty":"EC","crv":"P-256","x":"x","y":"y","d":"d"}'`)
      await assert.rejects(runtimeWith({ SECRETS_KEY: newKey }, false), /not sealed and bound/)
    } finally {
      await runtime.close()
      await owner.end()
    }
  })

  it('refuses to start in production without SECRETS_KEY', async () => {
    const { productionProblems } = await import('../../../src/config.ts')
    const env = {
      NODE_ENV: 'production',
      SEED_DEMO: 'false',
      BASE_URL: 'https://a.example',
      APP_URL: 'https://b.example',
    }
    assert.deepEqual(productionProblems(env, loadConfig(env)).filter((p) => p.includes('SECRETS_KEY')).length, 1)
  })
})
