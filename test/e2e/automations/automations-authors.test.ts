import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { MERCHANT_SCOPES } from '../../../src/modules/auth/index.ts'
import { type AutomationWorker, startAutomationWorker } from '../../../src/modules/automations/index.ts'
import type { Role } from '../../../src/platform/http/context.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import type { Mailer } from '../../../src/platform/mail/index.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, createMerchant, loginAs, startTestApp, type TestApp } from '../../support/harness.ts'
import { openShop, type Shop } from '../../support/shop.ts'
import { created } from '../../support/two-orgs.ts'
import { RECEIVER_ENV } from '../../support/webhook-fixtures.ts'

interface Run {
  id: string
  status: string
  data: unknown
  manual: boolean
  steps: { status: string; error: string | null; output: Record<string, string> | null }[]
}

const quietMailer: Mailer = { channel: 'email', async send() {}, close() {} }

/**
 * Automations act with their author's rights, no more (docs/automations.md "Authors and scopes"): each test failed
 * before authors were kept, when every action ran under a fixed context holding every write scope.
 */
describe('automations act within their author’s rights', () => {
  let app: TestApp
  let shop: Shop
  let worker: AutomationWorker

  before(async () => {
    app = await startTestApp({ AUTOMATIONS_MAX_RULES: '12', ...RECEIVER_ENV })
    shop = await openShop(app)
    worker = startAutomationWorker(app.runtime, app.services, { pollMs: 30, mailer: quietMailer, maxAttempts: 1 })
  })

  after(async () => {
    await worker?.stop()
    await app?.close()
  })

  const sql = <T extends Record<string, unknown>>(orgId: string, text: string, params: unknown[] = []) =>
    app.runtime.database.transaction(orgId, async (q) => (await q.query<T>(text, params)).rows)

  const login = (role: Role) => loginAs(app, shop.merchant.orgId, role)

  /** A partner app connected to the shop with `scopes`, and a token of that connection. */
  async function connectedApp(scopes: string[]) {
    const owner = systemContext(app.runtime.database, shop.merchant.orgId, MERCHANT_SCOPES)
    const registered = await app.services.oauth.apps.create(owner, {
      name: `Helper ${Math.random().toString(36).slice(2, 6)}`,
      redirectUris: ['https://helper.example/callback'],
      allowedScopes: scopes,
      partner: true,
    })
    const clientId = registered.app.client_id
    const { grantId } = await app.runtime.database.transaction(shop.merchant.orgId, (q) =>
      app.services.oauth.connectApp(q, { orgId: shop.merchant.orgId, clientId, scopes }),
    )
    const token = await app.runtime.accessTokens.sign({
      sub: clientId,
      orgId: shop.merchant.orgId,
      scopes,
      sid: grantId,
      clientId,
      actorKind: 'app',
      userId: null,
    })
    return {
      clientId,
      grantId,
      api: clientFor(app.api, token),
      disconnect: () => app.services.oauth.grants.disconnect(owner, clientId),
    }
  }

  const tagRule = (tag: string, domain: string) => ({
    name: `Tag ${tag}`,
    trigger: { type: 'event', event: 'customer.created' },
    conditions: { match: 'all', rules: [{ path: 'email', op: 'contains', value: domain }] },
    actions: [{ type: 'tag_customer', tag, customer_path: 'id' }],
  })

  const runsOf = async (automationId: string): Promise<Run[]> =>
    (await shop.api.get(`/api/v1/automations/${automationId}/runs`)).body.data

  const finished = (automationId: string, count = 1) =>
    eventually(async () => {
      const runs = await runsOf(automationId)
      assert.equal(runs.length, count)
      for (const run of runs) assert.ok(['succeeded', 'failed'].includes(run.status), JSON.stringify(run))
      return runs
    }, 15_000)

  test('saving a rule whose action needs a scope the author lacks is a 422 naming the action and the scope', async () => {
    const helper = await connectedApp(['automations:read', 'automations:write'])
    for (const [action, scope] of [
      [{ type: 'accrue_points', points: 500, customer_path: 'id', reason: 'free' }, 'loyalty:adjust'],
      [{ type: 'tag_customer', tag: 'x', customer_path: 'id' }, 'customers:write'],
      [{ type: 'send_email', to: 'anyone@example.com', subject: 'Hi', text: 'Hi' }, 'customers:read'],
      [
        {
          type: 'adjust_inventory',
          product_id: 'prod_x',
          location_id: shop.locationId,
          quantity: 1,
          reason: 'received',
        },
        'inventory:write',
      ],
    ] as const) {
      const res = await helper.api.post('/api/v1/automations', { ...tagRule('x', '@'), actions: [action] })
      assert.equal(res.status, 422, JSON.stringify(res.body))
      const error = res.body.errors.find((e: { code: string }) => e.code === 'missing_scope')
      assert.deepEqual(error, {
        field: 'actions.0.type',
        message: `the ${action.type} action needs the ${scope} scope, which the rule's author (this credential) does not hold`,
        code: 'missing_scope',
      })
    }
    // An e-mail can carry the event's data anywhere: on an order event it needs orders:read too.
    const mailer = await connectedApp(['automations:write', 'customers:read'])
    const mail = { type: 'send_email', to: 'me@elsewhere.example', subject: 'Order', text: '{{lines}} {{total}}' }
    const onOrder = await mailer.api.post('/api/v1/automations', {
      name: 'Mail orders out',
      trigger: { type: 'event', event: 'order.completed' },
      actions: [mail],
    })
    assert.equal(onOrder.status, 422, 'customers:read alone mailed whole orders out before')
    assert.match(onOrder.body.errors[0].message, /needs the orders:read scope/)
    const onCustomer = await mailer.api.post('/api/v1/automations', { ...tagRule('x', '@'), actions: [mail] })
    assert.equal(onCustomer.status, 201, JSON.stringify(onCustomer.body))
    await shop.api.delete(`/api/v1/automations/${onCustomer.body.data.id}`)
    // A manager holds everything but webhooks:write: a webhook action is theirs to refuse too.
    const manager = await login('manager')
    const integration = await created(shop.api, '/api/v1/integrations', { name: 'Hooks', type: 'custom' })
    const hook = await created(shop.api, `/api/v1/integrations/${integration.id}/webhooks`, {
      url: 'https://127.0.0.1:9/in',
      events: ['order.created'],
    })
    const webhook = await manager.api.post('/api/v1/automations', {
      ...tagRule('x', '@'),
      actions: [{ type: 'send_webhook', webhook_id: hook.id }],
    })
    assert.equal(webhook.status, 422)
    assert.equal(webhook.body.errors[0].field, 'actions.0.type')
    assert.match(webhook.body.errors[0].message, /webhooks:write/)
    const mine = await created(manager.api, '/api/v1/automations', tagRule('managed', '@managed.'))
    assert.equal(mine.author.user_id, manager.id)
    assert.equal(mine.author.client_id, 'first-party')
    assert.equal(mine.author.scopes.includes('webhooks:write'), false)
    assert.equal(mine.stopped, null)
    // Whoever saves a rule becomes its author: the manager cannot take over the owner's webhook rule either.
    const owners = await created(shop.api, '/api/v1/automations', {
      ...tagRule('x', '@nobody.'),
      actions: [{ type: 'send_webhook', webhook_id: hook.id }],
    })
    assert.equal(owners.author.user_id, shop.merchant.userId)
    const renamed = await manager.api.patch(`/api/v1/automations/${owners.id}`, { name: 'Mine now' })
    assert.equal(renamed.status, 422)
    assert.equal(renamed.body.errors[0].code, 'missing_scope')
    for (const id of [mine.id, owners.id]) await shop.api.delete(`/api/v1/automations/${id}`)
  })

  test('the catalog offers an app only the actions its scopes allow, and the paths the API accepts', async () => {
    const helper = await connectedApp(['automations:read', 'automations:write', 'customers:write'])
    const res = await helper.api.get('/api/v1/automations/catalog')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    type Trigger = { event: string; actions: string[]; paths: { path: string; type: string }[] }
    const onCustomer = (res.body.data.triggers as Trigger[]).find((t) => t.event === 'customer.created')
    assert.deepEqual(onCustomer?.actions, ['tag_customer', 'wait'])
    const email = onCustomer?.paths.find((p) => p.path === 'email')
    assert.deepEqual(email, { path: 'email', type: 'string' })
    // What the catalog offers, saved: accepted.
    const saved = await helper.api.post('/api/v1/automations', {
      name: 'From the catalog',
      trigger: { type: 'event', event: 'customer.created' },
      conditions: { match: 'all', rules: [{ path: email?.path, op: 'contains', value: '@' }] },
      actions: [{ type: onCustomer?.actions[0], tag: 'new' }],
    })
    assert.equal(saved.status, 201, JSON.stringify(saved.body))
    await shop.api.delete(`/api/v1/automations/${saved.body.data.id}`)
    assert.equal((await clientFor(app.api).get('/api/v1/automations/catalog')).status, 401)
  })

  test("an app's rule runs with the app's scopes and stops, saying why, when the app is disconnected", async () => {
    const helper = await connectedApp(['automations:read', 'automations:write', 'customers:write'])
    const rule = await created(helper.api, '/api/v1/automations', tagRule('helped', '@helped.'))
    assert.deepEqual(rule.author, {
      user_id: null,
      client_id: helper.clientId,
      grant_id: helper.grantId,
      scopes: ['automations:read', 'automations:write', 'customers:write'],
    })
    const first = await created(shop.api, '/api/v1/customers', { first_name: 'Hana', email: 'hana@helped.example' })
    const [run] = await finished(rule.id)
    assert.equal(run.status, 'succeeded', JSON.stringify(run))
    assert.deepEqual((await shop.api.get(`/api/v1/customers/${first.id}`)).body.data.tags, ['helped'])

    await helper.disconnect()
    const stopped = (await shop.api.get(`/api/v1/automations/${rule.id}`)).body.data
    assert.equal(stopped.stopped.code, 'AUTOMATION_AUTHOR_REVOKED')
    assert.match(stopped.stopped.message, /revoked \(disconnected\)/)
    // The owner's rule on the same event runs for the next customer: by then the app's rule had its chance.
    const witness = await created(shop.api, '/api/v1/automations', tagRule('seen', '@helped.'))
    const second = await created(shop.api, '/api/v1/customers', { first_name: 'Ike', email: 'ike@helped.example' })
    await finished(witness.id)
    assert.equal((await runsOf(rule.id)).length, 1, 'the stopped rule started no run')
    assert.deepEqual((await shop.api.get(`/api/v1/customers/${second.id}`)).body.data.tags, ['seen'])
    // Saving it again makes the saver its author, and it runs again.
    const resaved = (await shop.api.patch(`/api/v1/automations/${rule.id}`, { name: 'Tag helped (owner)' })).body.data
    assert.equal(resaved.stopped, null)
    assert.equal(resaved.author.user_id, shop.merchant.userId)
    for (const id of [rule.id, witness.id]) await shop.api.delete(`/api/v1/automations/${id}`)
  })

  test('a run fails its step with a clear code when the author lost the scope, and a deactivated author stops the rule', async () => {
    const manager = await login('manager')
    const productId = await shop.product(4, { stock: 5 })
    const rule = await created(manager.api, '/api/v1/automations', {
      ...tagRule('x', '@stocked.'),
      actions: [
        { type: 'tag_customer', tag: 'stocked', customer_path: 'id' },
        {
          type: 'adjust_inventory',
          product_id: productId,
          location_id: shop.locationId,
          quantity: -1,
          reason: 'damaged',
        },
      ],
    })
    // The manager becomes staff, who hold customers:write but not inventory:write.
    await sql(shop.merchant.orgId, `UPDATE users SET role = 'staff' WHERE org_id = $1 AND id = $2`, [
      shop.merchant.orgId,
      manager.id,
    ])
    await created(shop.api, '/api/v1/customers', { first_name: 'Sam', email: 'sam@stocked.example' })
    const [run] = await finished(rule.id)
    assert.equal(run.status, 'failed')
    assert.deepEqual(
      run.steps.map((s) => s.status),
      ['succeeded', 'failed'],
    )
    assert.equal(
      run.steps[1].error,
      "AUTOMATION_AUTHOR_LACKS_SCOPE: the adjust_inventory action needs the inventory:write scope, which the rule's author no longer holds",
    )
    assert.equal(await shop.level(productId), 5, 'no stock moved')

    await sql(shop.merchant.orgId, 'UPDATE users SET deactivated_at = now() WHERE org_id = $1 AND id = $2', [
      shop.merchant.orgId,
      manager.id,
    ])
    const stopped = (await shop.api.get(`/api/v1/automations/${rule.id}`)).body.data.stopped
    assert.equal(stopped.code, 'AUTOMATION_AUTHOR_DEACTIVATED')
    // Nor does a deactivated user sign in, or refresh a session (both worked before).
    const signIn = await clientFor(app.api).post('/api/v1/auth/login', {
      email: manager.email,
      password: manager.password,
    })
    assert.equal(signIn.status, 401)
    const refresh = await clientFor(app.api).post('/api/v1/auth/refresh', { refreshToken: manager.refreshToken })
    assert.equal(refresh.status, 401)
    const listed = (await shop.api.get('/api/v1/automations')).body.data.find((a: { id: string }) => a.id === rule.id)
    assert.equal(listed.stopped.code, 'AUTOMATION_AUTHOR_DEACTIVATED')
    const dry = await shop.api.post('/api/v1/automations/trigger', {
      event: 'customer.created',
      data: { id: 'cus_x', email: 'x@stocked.example' },
      dry_run: true,
    })
    assert.deepEqual(
      dry.body.data.runs.filter((r: { automation_id: string }) => r.automation_id === rule.id),
      [],
      'a stopped rule would not run',
    )
    await shop.api.delete(`/api/v1/automations/${rule.id}`)
  })

  test('run history shows event data only under the scope that reads it, and never a code in clear', async () => {
    const rule = await created(shop.api, '/api/v1/automations', {
      name: 'Card issued',
      trigger: { type: 'event', event: 'gift_card.issued' },
      actions: [{ type: 'send_email', to: 'owner@example.com', subject: 'Card', text: 'Code {{code}}' }],
    })
    const card = await created(shop.api, '/api/v1/gift-cards', { initial_balance: 25 })
    const [run] = await finished(rule.id)
    assert.equal(run.status, 'succeeded', JSON.stringify(run))
    const data = run.data as { id: string; code: string }
    assert.equal(data.id, card.id)
    assert.notEqual(data.code, card.code)
    assert.equal(data.code, `${'*'.repeat(card.code.length - 4)}${card.code.slice(-4)}`)
    assert.ok(!JSON.stringify(run).includes(card.code))

    const reader = await connectedApp(['automations:read'])
    const seen: Run = (await reader.api.get(`/api/v1/automations/runs/${run.id}`)).body.data
    assert.equal(seen.data, null, 'automations:read alone does not read gift cards (it showed the whole card before)')
    assert.equal(seen.steps.length, 1)
    const listed: Run[] = (await reader.api.get(`/api/v1/automations/${rule.id}/runs`)).body.data
    assert.equal(listed[0].data, null)
    const orders = await connectedApp(['automations:read', 'orders:read'])
    assert.equal(((await orders.api.get(`/api/v1/automations/runs/${run.id}`)).body.data as Run).data !== null, true)
    await shop.api.delete(`/api/v1/automations/${rule.id}`)
  })

  test('an org holds at most AUTOMATIONS_MAX_RULES rules', async () => {
    const org = await openShop(app)
    for (let i = 0; i < 12; i++) await created(org.api, '/api/v1/automations', tagRule(`t${i}`, '@limit.'))
    const refused = await org.api.post('/api/v1/automations', tagRule('one-more', '@limit.'))
    assert.equal(refused.status, 409)
    assert.equal(refused.body.code, 'AUTOMATION_RULE_LIMIT')
    assert.match(refused.body.detail, /12 automation rules/)
  })

  test("runs beyond the plan's runs per minute wait for a later minute; manual runs are marked and refused beyond it", async () => {
    const merchant = await createMerchant(app, { plan: 'starter' })
    const api = clientFor(app.api, merchant.token)
    const rule = await created(api, '/api/v1/automations', tagRule('limited', '@limited.'))
    const fire = () =>
      api.post('/api/v1/automations/trigger', {
        event: 'customer.created',
        data: { id: 'cus_none', email: 'x@limited.example' },
      })
    for (let i = 0; i < 60; i++) {
      const res = await fire()
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.equal(res.body.data.runs[0].manual, true)
    }
    const refused = await fire()
    assert.equal(refused.status, 429, 'Starter starts 60 runs a minute (it started any number before)')
    assert.equal(refused.body.code, 'AUTOMATION_RUN_LIMIT')
    assert.equal(refused.headers['retry-after'], '60')
    // An event's run is kept, due in a later minute: nothing is dropped.
    const customer = await created(api, '/api/v1/customers', { first_name: 'Lim', email: 'lim@limited.example' })
    const [late] = await eventually(async () => {
      const rows = await sql<{ manual: boolean; delay_s: number; status: string }>(
        merchant.orgId,
        `SELECT manual, extract(epoch FROM due_at - created_at)::int AS delay_s, status FROM automation_runs
         WHERE org_id = $1 AND automation_id = $2 AND event_id IS NOT NULL`,
        [merchant.orgId, rule.id],
      )
      assert.equal(rows.length, 1)
      return rows
    })
    assert.deepEqual(late, { manual: false, delay_s: 60, status: 'pending' })
    assert.deepEqual((await api.get(`/api/v1/customers/${customer.id}`)).body.data.tags, [])
  })
})
