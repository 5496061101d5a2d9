import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

// A public address as an IP literal: registration needs no DNS for it, and nothing is ever sent there.
const PUBLIC_URL = 'https://93.184.215.14/hooks/opentill'

describe('integrations and webhook endpoints', () => {
  let app: TestApp
  let merchant: Merchant
  let other: Merchant
  let api: ReturnType<typeof clientFor>

  before(async () => {
    // No WEBHOOK_ALLOW_NETWORKS: loopback and private addresses are refused like in production.
    app = await startTestApp()
    merchant = await createMerchant(app)
    other = await createMerchant(app, { name: 'Other Shop' })
    api = clientFor(app.api, merchant.token)
  })
  after(() => app.close())

  async function install(name = 'Accounting sync') {
    const res = await api.post('/api/v1/integrations', {
      name,
      type: 'accounting',
      config: { ledger: 'main', sync: true },
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data
  }

  it('installs an integration and lists them in installation order, page by page', async () => {
    const first = await install('First')
    assert.match(first.id, /^int_/)
    assert.deepEqual(first.config, { ledger: 'main', sync: true })
    assert.equal(first.type, 'accounting')
    await install('Second')
    await install('Third')
    const page1 = await api.get('/api/v1/integrations?limit=2')
    assert.equal(page1.status, 200)
    assert.equal(page1.body.data.length, 2)
    assert.equal(page1.body.pagination.hasMore, true)
    const page2 = await api.get(`/api/v1/integrations?limit=2&cursor=${page1.body.pagination.nextCursor}`)
    assert.equal(page2.body.pagination.hasMore, false)
    const names = [...page1.body.data, ...page2.body.data].map((i: { name: string }) => i.name)
    assert.deepEqual(names, ['First', 'Second', 'Third'])
    assert.equal((await api.get(`/api/v1/integrations/${first.id}`)).body.data.name, 'First')
  })

  it('refuses an integration with an unknown field or a malformed type, naming the field', async () => {
    const unknown = await api.post('/api/v1/integrations', { name: 'X', type: 'custom', colour: 'red' })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'colour')
    const badType = await api.post('/api/v1/integrations', { name: 'X', type: 'Not A Type!' })
    assert.equal(badType.status, 422)
    assert.equal(badType.body.errors[0].field, 'type')
    const missing = await api.post('/api/v1/integrations', { type: 'custom' })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'name')
  })

  it('registers an HTTPS webhook and shows its whsec_ secret only once', async () => {
    const integration = await install()
    const res = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: PUBLIC_URL,
      events: ['order.created', 'payment.approved'],
      description: 'orders to the ledger',
    })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    const hook = res.body.data
    assert.match(hook.id, /^wh_/)
    assert.match(hook.secret, /^whsec_[A-Za-z0-9+/]+=*$/)
    assert.equal(Buffer.from(hook.secret.slice(6), 'base64').length, 32)
    assert.deepEqual(hook.events, ['order.created', 'payment.approved'])
    assert.equal(hook.status, 'active')
    assert.equal(hook.integration_id, integration.id)

    const list = await api.get(`/api/v1/integrations/${integration.id}/webhooks`)
    assert.equal(list.status, 200)
    assert.equal(list.body.data.length, 1)
    assert.equal(list.body.data[0].secret, undefined)
    const one = await api.get(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}`)
    assert.equal(one.body.data.url, PUBLIC_URL)
    assert.equal(one.body.data.secret, undefined)
  })

  it('refuses event names outside the catalog and an alias listed with its catalog name', async () => {
    const integration = await install()
    const unknown = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: PUBLIC_URL,
      events: ['order.created', 'order.exploded'],
    })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'events.1')
    assert.equal(unknown.body.errors[0].code, 'unknown_event')
    const twice = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, {
      url: PUBLIC_URL,
      events: ['inventory.stockout', 'inventory.out_of_stock'],
    })
    assert.equal(twice.status, 422)
    assert.equal(twice.body.errors[0].code, 'duplicate')
    const empty = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url: PUBLIC_URL, events: [] })
    assert.equal(empty.status, 422)
    assert.equal(empty.body.errors[0].field, 'events')
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}/webhooks`)).body.data.length, 0)
  })

  it('refuses every unsafe URL at registration (SSRF) and stores nothing', async () => {
    const integration = await install()
    const cases: [string, string][] = [
      ['http://93.184.215.14/hook', 'https_required'],
      ['ftp://93.184.215.14/hook', 'https_required'],
      ['https://user:secret@93.184.215.14/hook', 'credentials_not_allowed'],
      ['https://:secret@93.184.215.14/hook', 'credentials_not_allowed'],
      ['https://127.0.0.1/hook', 'forbidden_address'],
      ['https://127.1.2.3:8443/hook', 'forbidden_address'],
      ['https://localhost/hook', 'forbidden_address'],
      ['https://0.0.0.0/hook', 'forbidden_address'],
      ['https://10.1.2.3/hook', 'forbidden_address'],
      ['https://172.16.0.1/hook', 'forbidden_address'],
      ['https://172.31.255.254/hook', 'forbidden_address'],
      ['https://192.168.1.10/hook', 'forbidden_address'],
      ['https://100.64.0.1/hook', 'forbidden_address'],
      ['https://169.254.169.254/latest/meta-data', 'forbidden_address'],
      ['https://[::1]/hook', 'forbidden_address'],
      ['https://[::]/hook', 'forbidden_address'],
      ['https://[fe80::1]/hook', 'forbidden_address'],
      ['https://[fd12:3456:789a::1]/hook', 'forbidden_address'],
      ['https://[fc00::1]/hook', 'forbidden_address'],
      ['https://[::ffff:127.0.0.1]/hook', 'forbidden_address'],
      ['https://[::ffff:7f00:1]/hook', 'forbidden_address'],
      ['https://[::ffff:10.0.0.1]/hook', 'forbidden_address'],
      ['https://[::ffff:169.254.169.254]/hook', 'forbidden_address'],
      ['https://[64:ff9b::a9fe:a9fe]/hook', 'forbidden_address'],
      ['https://2130706433/hook', 'forbidden_address'], // decimal 127.0.0.1
      ['https://0x7f000001/hook', 'forbidden_address'], // hex 127.0.0.1
      ['https://0x7f.0x0.0x0.0x1/hook', 'forbidden_address'], // dotted hex
      ['https://0177.0.0.1/hook', 'forbidden_address'], // octal
      ['https://3232235777/hook', 'forbidden_address'], // decimal 192.168.1.1
      ['https://0xa9fea9fe/hook', 'forbidden_address'], // hex 169.254.169.254
      ['https://no-such-host.invalid/hook', 'unresolvable_host'],
      ['not a url', 'invalid_url'],
    ]
    for (const [url, code] of cases) {
      const res = await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url, events: ['order.created'] })
      assert.equal(res.status, 422, `${url} was accepted`)
      assert.equal(res.body.errors[0].field, 'url', url)
      assert.equal(res.body.errors[0].code, code, url)
    }
    assert.equal((await api.get(`/api/v1/integrations/${integration.id}/webhooks`)).body.data.length, 0)
  })

  it('rotates a secret: a new whsec_ is shown once and the old one stays valid 24 hours', async () => {
    const integration = await install()
    const hook = (
      await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url: PUBLIC_URL, events: ['order.created'] })
    ).body.data
    assert.equal(hook.previous_secret_expires_at, null)
    const rotated = await api.post(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}/rotate-secret`)
    assert.equal(rotated.status, 200)
    assert.match(rotated.body.data.secret, /^whsec_/)
    assert.notEqual(rotated.body.data.secret, hook.secret)
    const expires = Date.parse(rotated.body.data.previous_secret_expires_at) - Date.now()
    assert.ok(expires > 23.9 * 3_600_000 && expires <= 24 * 3_600_000, `grace of ${expires} ms`)
    assert.equal(
      (await api.post(`/api/v1/integrations/${integration.id}/webhooks/wh_missing/rotate-secret`)).status,
      404,
    )
  })

  it('queues a test delivery of a named event and refuses unknown events and webhooks', async () => {
    const integration = await install()
    const hook = (
      await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url: PUBLIC_URL, events: ['order.created'] })
    ).body.data
    const res = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
      event: 'customer.created',
      webhookId: hook.id,
    })
    assert.equal(res.status, 202, JSON.stringify(res.body))
    assert.equal(res.body.data.event, 'customer.created')
    assert.equal(res.body.data.is_test, true)
    assert.equal(res.body.data.status, 'pending')
    assert.match(res.body.data.id, /^msg_/)
    const badEvent = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
      event: 'nope.nope',
      webhookId: hook.id,
    })
    assert.equal(badEvent.status, 422)
    assert.equal(badEvent.body.errors[0].field, 'event')
    const badHook = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
      event: 'order.created',
      webhookId: 'wh_nope',
    })
    assert.equal(badHook.status, 404)
    const missing = await api.post(`/api/v1/integrations/${integration.id}/webhooks/test`, { event: 'order.created' })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'webhookId')
  })

  it("answers 404 for another org's integration, webhooks and deliveries", async () => {
    const integration = await install()
    const hook = (
      await api.post(`/api/v1/integrations/${integration.id}/webhooks`, { url: PUBLIC_URL, events: ['order.created'] })
    ).body.data
    const stranger = clientFor(app.api, other.token)
    assert.equal((await stranger.get(`/api/v1/integrations/${integration.id}`)).status, 404)
    assert.equal((await stranger.get(`/api/v1/integrations/${integration.id}/webhooks`)).status, 404)
    assert.equal((await stranger.get(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}`)).status, 404)
    assert.equal(
      (
        await stranger.post(`/api/v1/integrations/${integration.id}/webhooks`, {
          url: PUBLIC_URL,
          events: ['order.created'],
        })
      ).status,
      404,
    )
    assert.equal(
      (await stranger.post(`/api/v1/integrations/${integration.id}/webhooks/${hook.id}/rotate-secret`)).status,
      404,
    )
    assert.equal(
      (
        await stranger.post(`/api/v1/integrations/${integration.id}/webhooks/test`, {
          event: 'order.created',
          webhookId: hook.id,
        })
      ).status,
      404,
    )
    assert.equal((await stranger.post(`/api/v1/webhooks/endpoints/${hook.id}/enable`)).status, 404)
    assert.equal((await stranger.get('/api/v1/integrations')).body.data.length, 0)
    assert.equal((await stranger.get('/api/v1/webhooks/endpoints')).body.data.length, 0)
    // Their own integration cannot adopt this org's webhook either.
    const theirs = (await stranger.post('/api/v1/integrations', { name: 'Theirs', type: 'custom' })).body.data
    assert.equal(
      (
        await stranger.post(`/api/v1/integrations/${theirs.id}/webhooks/test`, {
          event: 'order.created',
          webhookId: hook.id,
        })
      ).status,
      404,
    )
  })

  it('documents the integrations and webhooks routes in the OpenAPI description', async () => {
    const res = await app.api.inject({ method: 'GET', url: '/openapi.json' })
    assert.equal(res.statusCode, 200)
    const paths = Object.keys(res.json().paths)
    for (const path of [
      '/api/v1/integrations/{id}/webhooks',
      '/api/v1/webhooks/failed/{eventDeliveryId}/replay',
      '/api/v1/webhooks/endpoints/{webhookId}/enable',
    ]) {
      assert.ok(paths.includes(path), path)
    }
  })

  it('requires the webhooks:write scope, also for reads', async () => {
    const email = `manager-${Date.now()}@example.test`
    await app.runtime.database.transaction(merchant.orgId, (q) =>
      app.services.auth.createUser(q, { orgId: merchant.orgId, email, role: 'manager', password: 'manager-password' }),
    )
    const login = await clientFor(app.api).post('/api/v1/auth/login', { email, password: 'manager-password' })
    const manager = clientFor(app.api, login.body.data.accessToken)
    const res = await manager.get('/api/v1/integrations')
    assert.equal(res.status, 403)
    assert.match(String(res.headers['www-authenticate']), /webhooks:write/)
    assert.equal((await manager.get('/api/v1/webhooks/deliveries')).status, 403)
  })
})
