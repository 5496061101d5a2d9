import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { Webhook } from 'standardwebhooks'
import { type AutomationWorker, startAutomationWorker } from '../../../src/modules/automations/index.ts'
import type { WebhookWorker } from '../../../src/modules/webhooks/index.ts'
import { DBOS_LOGIN, ensureDbosLogin } from '../../../src/platform/db/app-login.ts'
import type { Mailer, MailMessage } from '../../../src/platform/mail/index.ts'
import { eventually } from '../../support/eventually.ts'
import { clientFor, startTestApp, type TestApp } from '../../support/harness.ts'
import { HttpsReceiver } from '../../support/https-receiver.ts'
import { openShop, type Shop } from '../../support/shop.ts'
import { created } from '../../support/two-orgs.ts'
import { RECEIVER_ENV, startTestWorker } from '../../support/webhook-fixtures.ts'

interface Step {
  type: string
  status: string
  attempts: number
  output: Record<string, string>
  error: string | null
}
interface Run {
  id: string
  status: string
  event: string
  depth: number
  error: string | null
  retries: number
  steps: Step[]
}

/** A mailer that keeps what it is given (the port every e-mail goes through). */
class KeptMailer implements Mailer {
  readonly channel = 'email' as const
  readonly sent: MailMessage[] = []
  async send(message: MailMessage) {
    this.sent.push(message)
  }
  close() {}
}

describe('automations', () => {
  let app: TestApp
  let shop: Shop
  let other: Shop
  let worker: AutomationWorker
  let receiver: HttpsReceiver
  let webhookWorker: WebhookWorker
  const mailer = new KeptMailer()
  let webhookId: string
  let webhookSecret: string
  let productId: string

  before(async () => {
    receiver = await new HttpsReceiver().start()
    app = await startTestApp({ ...RECEIVER_ENV })
    webhookWorker = startTestWorker(app)
    shop = await openShop(app)
    other = await openShop(app)
    worker = startAutomationWorker(app.runtime, app.services, {
      pollMs: 30,
      mailer,
      maxAttempts: 2,
      retryIntervalS: 0.1,
    })
    const integration = await created(shop.api, '/api/v1/integrations', { name: 'Receiver', type: 'custom' })
    const hook = await created(shop.api, `/api/v1/integrations/${integration.id}/webhooks`, {
      url: receiver.url('/automation'),
      events: ['order.created'],
    })
    webhookId = hook.id
    webhookSecret = hook.secret
    productId = await shop.product(5, { stock: 10 })
  })

  after(async () => {
    await worker?.stop()
    await webhookWorker?.stop()
    await receiver?.close()
    await app?.close()
  })

  const rule = (overrides: Record<string, unknown> = {}) => ({
    name: 'VIP welcome',
    trigger: { type: 'event', event: 'customer.created' },
    conditions: { match: 'all', rules: [{ path: 'email', op: 'contains', value: '@vip.' }] },
    actions: [{ type: 'tag_customer', tag: 'vip', customer_path: 'id' }],
    ...overrides,
  })

  const runsOf = async (automationId: string) =>
    (await shop.api.get(`/api/v1/automations/${automationId}/runs`)).body.data as Run[]

  const finishedRun = (automationId: string, status = 'succeeded') =>
    eventually(async () => {
      const runs = await runsOf(automationId)
      assert.equal(runs.length, 1)
      assert.equal(runs[0].status, status, JSON.stringify(runs[0]))
      return runs[0]
    }, 15_000)

  const ownerCount = async (sql: string, params: unknown[]) =>
    app.runtime.database.read(shop.merchant.orgId, async (q) => {
      const result = await q.query<{ n: number }>(sql, params)
      return Number(result.rows[0].n)
    })

  test('a rule is created, read, listed, updated with a version check and deleted', async () => {
    const auto = await created(shop.api, '/api/v1/automations', rule())
    assert.match(auto.id, /^auto_/)
    assert.equal(auto.enabled, true)
    assert.equal(auto.version, 1)
    assert.deepEqual((await shop.api.get(`/api/v1/automations/${auto.id}`)).body.data, auto)
    assert.ok((await shop.api.get('/api/v1/automations')).body.data.some((a: { id: string }) => a.id === auto.id))

    const renamed = await shop.api.patch(`/api/v1/automations/${auto.id}`, {
      name: 'Renamed',
      enabled: false,
      version: 1,
    })
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
    assert.equal(renamed.body.data.name, 'Renamed')
    assert.equal(renamed.body.data.version, 2)
    const stale = await shop.api.patch(`/api/v1/automations/${auto.id}`, { name: 'Again', version: 1 })
    assert.equal(stale.status, 409)

    assert.equal((await shop.api.delete(`/api/v1/automations/${auto.id}`)).status, 204)
    assert.equal((await shop.api.get(`/api/v1/automations/${auto.id}`)).status, 404)
  })

  test('a rule that cannot work is refused when saved: unknown event, impossible path, bad cron, foreign ids', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ trigger: { type: 'event', event: 'order.exploded' } }, 'trigger.event'],
      [
        { conditions: { match: 'all', rules: [{ path: 'no_such_field', op: 'eq', value: 1 }] } },
        'conditions.rules.0.path',
      ],
      [{ conditions: { match: 'all', rules: [{ path: 'email.inner', op: 'exists' }] } }, 'conditions.rules.0.path'],
      [{ conditions: { match: 'any', rules: [{ path: 'email', op: 'in', value: 'x' }] } }, 'conditions.rules.0.value'],
      [{ actions: [{ type: 'tag_customer', tag: 'x', customer_path: 'customer.id' }] }, 'actions.0.customer_path'],
      [{ actions: [{ type: 'send_webhook', webhook_id: 'wh_nope' }] }, 'actions.0.webhook_id'],
      [{ actions: [{ type: 'send_email', subject: 's', text: 't' }] }, 'actions.0.to'],
      [
        { trigger: { type: 'schedule', cron: '61 * * * *', location_id: shop.locationId }, conditions: undefined },
        'trigger.cron',
      ],
      [{ trigger: { type: 'event', event: 'order.created', location_id: other.locationId } }, 'trigger.location_id'],
      [{ surprise: true }, 'surprise'],
    ]
    for (const [overrides, field] of cases) {
      const res = await shop.api.post('/api/v1/automations', rule(overrides))
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`)
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        `${field}: ${JSON.stringify(res.body.errors)}`,
      )
    }
    const orderRule = await shop.api.post(
      '/api/v1/automations',
      rule({
        trigger: { type: 'event', event: 'order.created' },
        conditions: { match: 'all', rules: [{ path: 'lines.*.quantity', op: 'gte', value: 2 }] },
        actions: [{ type: 'tag_customer', tag: 'bulk', customer_path: 'customer_id' }],
      }),
    )
    assert.equal(orderRule.status, 201, 'a path through an array of the order is accepted')
    await shop.api.delete(`/api/v1/automations/${orderRule.body.data.id}`)
  })

  test('an outbox event runs every action against its module: tag, stock, signed webhook delivery, e-mail', async () => {
    const auto = await created(
      shop.api,
      '/api/v1/automations',
      rule({
        actions: [
          { type: 'tag_customer', tag: 'vip', customer_path: 'id' },
          {
            type: 'adjust_inventory',
            product_id: productId,
            location_id: shop.locationId,
            quantity: -1,
            reason: 'damaged',
          },
          { type: 'send_webhook', webhook_id: webhookId },
          { type: 'send_email', to_path: 'email', subject: 'Welcome {{first_name}}', text: 'Hello {{first_name}}' },
        ],
      }),
    )
    const customer = await created(shop.api, '/api/v1/customers', { first_name: 'Vera', email: 'vera@vip.example' })
    const run = await finishedRun(auto.id)
    assert.equal(run.event, 'customer.created')
    assert.equal(run.depth, 1)
    assert.deepEqual(
      run.steps.map((s: Step) => [s.type, s.status, s.attempts]),
      [
        ['tag_customer', 'succeeded', 1],
        ['adjust_inventory', 'succeeded', 1],
        ['send_webhook', 'succeeded', 1],
        ['send_email', 'succeeded', 1],
      ],
    )
    assert.deepEqual(run.steps[0].output, { customer_id: customer.id, tag: 'vip', added: true })
    assert.deepEqual((await shop.api.get(`/api/v1/automations/runs/${run.id}`)).body.data, run)

    assert.deepEqual((await shop.api.get(`/api/v1/customers/${customer.id}`)).body.data.tags, ['vip'])
    assert.equal(await shop.level(productId), 9)
    const delivery = await ownerCount(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE org_id = $1 AND id = $2 AND endpoint_id = $3
         AND event = 'automation.triggered' AND payload::jsonb -> 'data' ->> 'run_id' = $4`,
      [shop.merchant.orgId, run.steps[2].output.delivery_id, webhookId, run.id],
    )
    assert.equal(delivery, 1)
    await receiver.waitFor(() => receiver.on('/automation').length === 1)
    const [received] = receiver.on('/automation')
    new Webhook(webhookSecret).verify(received.body, received.headers as Record<string, string>)
    const envelope = JSON.parse(received.body)
    assert.equal(envelope.event, 'automation.triggered')
    assert.equal(envelope.data.run_id, run.id)
    assert.equal(envelope.data.data.email, 'vera@vip.example')
    assert.deepEqual(
      mailer.sent.filter((m) => m.to === 'vera@vip.example'),
      [{ to: 'vera@vip.example', subject: 'Welcome Vera', text: 'Hello Vera' }],
    )
    const triggered = await eventually(async () => {
      const events = (await shop.api.get('/api/v1/events?type=automation.triggered')).body.data
      const mine = events.filter((e: { data: { run_id: string } }) => e.data.run_id === run.id)
      assert.equal(mine.length, 1)
      return mine[0]
    })
    assert.equal(triggered.data.automation_id, auto.id)

    // A customer the conditions exclude, and the other org's VIP, start nothing.
    await created(shop.api, '/api/v1/customers', { first_name: 'Ed', email: 'ed@example.com' })
    await created(other.api, '/api/v1/customers', { first_name: 'Olga', email: 'olga@vip.example' })
    await sleep(500)
    assert.equal((await runsOf(auto.id)).length, 1)
    await shop.api.patch(`/api/v1/automations/${auto.id}`, { enabled: false })
  })

  test('a welcome rule accrues points, issues a voucher of a campaign and e-mails its code', async () => {
    await created(shop.api, '/api/v1/loyalty/programs', { name: 'Club' })
    const campaign = await created(shop.api, '/api/v1/campaigns', {
      name: 'Welcome 20%',
      rules: [{ type: 'percentage', percent: 20 }],
      requires_voucher: true,
      status: 'scheduled',
    })
    const refused = await shop.api.post(
      '/api/v1/automations',
      rule({ actions: [{ type: 'issue_voucher', campaign_id: 'cmp_unknown', customer_path: 'id' }] }),
    )
    assert.equal(refused.status, 422)
    assert.equal(refused.body.errors[0].field, 'actions.0.campaign_id')
    const auto = await created(
      shop.api,
      '/api/v1/automations',
      rule({
        name: 'Welcome gifts',
        conditions: { match: 'all', rules: [{ path: 'email', op: 'contains', value: '@welcome.' }] },
        actions: [
          { type: 'accrue_points', points: 100, customer_path: 'id', reason: 'welcome gift' },
          { type: 'issue_voucher', campaign_id: campaign.id, customer_path: 'id' },
          { type: 'send_email', to_path: 'email', subject: 'A gift', text: 'Your code: {{steps.1.voucher_code}}' },
        ],
      }),
    )
    const customer = await created(shop.api, '/api/v1/customers', { first_name: 'Wes', email: 'wes@welcome.example' })
    const run = await finishedRun(auto.id)
    assert.equal(run.steps[0].output.balance, 100)
    const member = (await shop.api.get(`/api/v1/loyalty/members/${customer.id}`)).body.data
    assert.equal(member.balance, 100)
    assert.equal(member.history[0].reason, 'welcome gift')
    const vouchers = (await shop.api.get(`/api/v1/campaigns/${campaign.id}/vouchers`)).body.data
    assert.equal(vouchers.length, 1)
    const { code } = vouchers[0]
    assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
    assert.equal(vouchers[0].customer_id, customer.id)
    // The run history keeps the code masked (failed before: the whole code); the e-mail still carries it whole.
    assert.equal(run.steps[1].output.voucher_code, `**********${code.slice(-4)}`)
    assert.ok(!JSON.stringify(run).includes(code))
    assert.deepEqual(
      mailer.sent.filter((m) => m.to === 'wes@welcome.example'),
      [{ to: 'wes@welcome.example', subject: 'A gift', text: `Your code: ${code}` }],
    )
    await shop.api.delete(`/api/v1/automations/${auto.id}`)
  })

  test('the trigger endpoint dry-runs without storing, or starts a run it returns', async () => {
    const auto = await created(
      shop.api,
      '/api/v1/automations',
      rule({
        trigger: { type: 'event', event: 'order.completed', location_id: shop.locationId },
        conditions: { match: 'any', rules: [{ path: 'total', op: 'gt', value: 100 }] },
        actions: [{ type: 'send_email', to: 'owner@example.com', subject: 'Big sale', text: 'Total {{total}}' }],
      }),
    )
    const data = { id: 'ord_test', location_id: shop.locationId, total: 150 }
    const dry = await shop.api.post('/api/v1/automations/trigger', { event: 'order.completed', data, dry_run: true })
    assert.equal(dry.status, 200, JSON.stringify(dry.body))
    assert.equal(dry.body.data.dry_run, true)
    assert.equal(dry.body.data.runs.length, 1)
    assert.equal(dry.body.data.runs[0].id, null)
    assert.equal((await runsOf(auto.id)).length, 0)

    const small = await shop.api.post('/api/v1/automations/trigger', {
      event: 'order.completed',
      data: { ...data, total: 5 },
    })
    assert.deepEqual(small.body.data.runs, [])
    const elsewhere = await shop.api.post('/api/v1/automations/trigger', {
      event: 'order.completed',
      data: { ...data, location_id: 'loc_elsewhere' },
    })
    assert.deepEqual(elsewhere.body.data.runs, [], 'the location filter holds')

    // An app with automations:write may only dry-run: a real run would act on data it made up (it could before).
    const appToken = await app.runtime.accessTokens.sign({
      sub: 'app_test',
      orgId: shop.merchant.orgId,
      scopes: ['automations:read', 'automations:write'],
      sid: 'sess_app_automations',
      clientId: 'app_test',
      actorKind: 'app',
      userId: shop.merchant.userId,
    })
    const asApp = clientFor(app.api, appToken)
    const refused = await asApp.post('/api/v1/automations/trigger', { event: 'order.completed', data })
    assert.equal(refused.status, 403)
    assert.equal(refused.body.code, 'AUTOMATION_MANUAL_RUN_NEEDS_LOGIN')
    assert.equal((await runsOf(auto.id)).length, 0)
    const appDry = await asApp.post('/api/v1/automations/trigger', { event: 'order.completed', data, dry_run: true })
    assert.equal(appDry.status, 200)

    const fired = await shop.api.post('/api/v1/automations/trigger', { event: 'order.completed', data })
    assert.equal(fired.status, 200)
    const [run] = fired.body.data.runs
    assert.equal(run.status, 'pending')
    assert.equal(run.steps.length, 1)
    await finishedRun(auto.id)
    assert.ok(mailer.sent.some((m) => m.subject === 'Big sale' && m.text === 'Total 150'))
    await shop.api.patch(`/api/v1/automations/${auto.id}`, { enabled: false })
  })

  test('a failed step is retried with back-off, and a retry resumes the run from it without redoing done steps', async () => {
    const empty = await shop.product(3)
    const auto = await created(
      shop.api,
      '/api/v1/automations',
      rule({
        conditions: { match: 'all', rules: [{ path: 'email', op: 'contains', value: '@retry.' }] },
        actions: [
          { type: 'tag_customer', tag: 'retried', customer_path: 'id' },
          {
            type: 'adjust_inventory',
            product_id: empty,
            location_id: shop.locationId,
            quantity: -2,
            reason: 'damaged',
          },
        ],
      }),
    )
    const customer = await created(shop.api, '/api/v1/customers', { first_name: 'Rita', email: 'rita@retry.example' })
    const failed = await finishedRun(auto.id, 'failed')
    assert.deepEqual(
      failed.steps.map((s: Step) => [s.status, s.attempts]),
      [
        ['succeeded', 1],
        ['failed', 2],
      ],
    )
    // A code and a short message: what the inventory module answered, no stack or driver detail.
    assert.match(String(failed.error), /^step 1 \(adjust_inventory\) failed: INSUFFICIENT_STOCK: /)
    assert.match(String(failed.steps[1].error), /^INSUFFICIENT_STOCK: /)
    await shop.stock(empty, 5)
    assert.equal((await shop.api.post(`/api/v1/automations/runs/${failed.id}/retry`)).status, 200)
    const retried = await eventually(async () => {
      const run = (await shop.api.get(`/api/v1/automations/runs/${failed.id}`)).body.data
      assert.equal(run.status, 'succeeded', JSON.stringify(run))
      return run
    }, 15_000)
    assert.equal(retried.retries, 1)
    assert.deepEqual(
      retried.steps.map((s: Step) => [s.status, s.attempts]),
      [
        ['succeeded', 1],
        ['succeeded', 3],
      ],
    )
    assert.equal(await shop.level(empty), 3)
    const tagged = await ownerCount(
      `SELECT count(*) AS n FROM events WHERE org_id = $1 AND type = 'customer.updated' AND data ->> 'id' = $2
         AND data -> 'tags' ? 'retried'`,
      [shop.merchant.orgId, customer.id],
    )
    assert.equal(tagged, 1, 'the tag step ran once')
    const again = await shop.api.post(`/api/v1/automations/runs/${failed.id}/retry`)
    assert.equal(again.status, 409, 'only a failed run can be retried')
    await shop.api.patch(`/api/v1/automations/${auto.id}`, { enabled: false })
  })

  test("an automation's own events trigger rules once, and automation.triggered triggers none (no fan-out)", async () => {
    const echo = await shop.api.post('/api/v1/automations', {
      name: 'Echo',
      trigger: { type: 'event', event: 'automation.triggered' },
      actions: [{ type: 'tag_customer', tag: 'echo', customer_path: 'customer_id' }],
    })
    assert.equal(echo.status, 422, 'every run emits automation.triggered: a rule on it would fan out (it could before)')
    assert.deepEqual(echo.body.errors[0], {
      field: 'trigger.event',
      message: 'automation.triggered triggers no rule: every run emits it (docs/automations.md "Loops")',
      code: 'not_triggerable',
    })
    // Points earned earn points: each run's own loyalty.points_earned triggers the rule once more, and no further.
    const customer = await created(shop.api, '/api/v1/customers', { first_name: 'Lou', email: 'lou@loop.example' })
    const auto = await created(shop.api, '/api/v1/automations', {
      name: 'Echo points',
      trigger: { type: 'event', event: 'loyalty.points_earned' },
      actions: [{ type: 'accrue_points', points: 1, customer_path: 'customer_id', reason: 'echo' }],
    })
    await shop.api.post('/api/v1/automations/trigger', {
      event: 'loyalty.points_earned',
      data: { customer_id: customer.id },
      automation_id: auto.id,
    })
    await eventually(async () => {
      const runs = await runsOf(auto.id)
      assert.deepEqual(
        runs.map((r) => [r.depth, r.status]),
        [
          [1, 'succeeded'],
          [2, 'succeeded'],
        ],
      )
    }, 15_000)
    // The second run's points event was relayed and started nothing: the queue holds none of the org's events.
    await eventually(async () =>
      assert.equal(
        await ownerCount('SELECT count(*) AS n FROM automation_trigger_queue WHERE org_id = $1', [shop.merchant.orgId]),
        0,
      ),
    )
    assert.equal((await runsOf(auto.id)).length, 2)
    assert.equal((await shop.api.get(`/api/v1/loyalty/members/${customer.id}`)).body.data.balance, 2)
    await shop.api.patch(`/api/v1/automations/${auto.id}`, { enabled: false })
  })

  test('DBOS connects as a role of its own, which reaches its schema and nothing of the app', async () => {
    const asOwner = new pg.Client({ connectionString: app.runtime.ownerUrl })
    const dbosUrl = await ensureDbosLogin(app.runtime.ownerUrl)
    const asDbos = new pg.Client({ connectionString: dbosUrl })
    await asOwner.connect()
    await asDbos.connect()
    try {
      // Before, DBOS connected with the owner's URL (a superuser on the embedded cluster).
      const sessions = await asOwner.query<{ usename: string }>(
        `SELECT DISTINCT usename FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND usename = $1`,
        [DBOS_LOGIN],
      )
      assert.equal(sessions.rows.length, 1, "DBOS's pool is connected as its own role")
      const role = await asOwner.query(
        'SELECT rolsuper, rolcreatedb, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname = $1',
        [DBOS_LOGIN],
      )
      assert.deepEqual(role.rows[0], { rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolbypassrls: false })
      const owned = await asOwner.query(
        `SELECT count(*)::int AS n FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = $1`,
        [DBOS_LOGIN],
      )
      assert.equal(owned.rows[0].n, 0, 'it owns nothing: it cannot alter even its own tables')
      assert.ok((await asDbos.query('SELECT count(*) FROM dbos.workflow_status')).rows[0])
      for (const statement of [
        'SELECT count(*) FROM users',
        'SELECT count(*) FROM orders',
        'CREATE TABLE dbos.extra (x int)',
        'CREATE SCHEMA other',
      ]) {
        await assert.rejects(asDbos.query(statement), (error: { code?: string }) => error.code === '42501', statement)
      }
    } finally {
      await asOwner.end()
      await asDbos.end()
    }
  })

  test("another org's rule and run are a 404, and its list does not show them", async () => {
    const auto = await created(shop.api, '/api/v1/automations', rule({ enabled: false }))
    const fired = await shop.api.post('/api/v1/automations/trigger', {
      event: 'customer.created',
      data: { id: 'cus_x', email: 'x@vip.example' },
      automation_id: auto.id,
    })
    assert.equal(fired.body.data.runs.length, 0, 'a disabled rule does not run')
    await shop.api.patch(`/api/v1/automations/${auto.id}`, { enabled: true })
    const run = (
      await shop.api.post('/api/v1/automations/trigger', {
        event: 'customer.created',
        data: { id: 'cus_x', email: 'x@vip.example' },
        automation_id: auto.id,
      })
    ).body.data.runs[0]
    assert.ok(run.id)
    assert.equal((await other.api.get(`/api/v1/automations/${auto.id}`)).status, 404)
    assert.equal((await other.api.patch(`/api/v1/automations/${auto.id}`, { name: 'mine' })).status, 404)
    assert.equal((await other.api.delete(`/api/v1/automations/${auto.id}`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/automations/${auto.id}/runs`)).status, 404)
    assert.equal((await other.api.get(`/api/v1/automations/runs/${run.id}`)).status, 404)
    assert.equal((await other.api.post(`/api/v1/automations/runs/${run.id}/retry`)).status, 404)
    const theirs = await other.api.post('/api/v1/automations/trigger', {
      event: 'customer.created',
      data: {},
      automation_id: auto.id,
    })
    assert.equal(theirs.status, 404)
    assert.deepEqual((await other.api.get('/api/v1/automations')).body.data, [])
    // The run fails (no such customer) on its own: not found is not retried.
    const done = await finishedRun(auto.id, 'failed')
    assert.equal(done.steps[0].attempts, 1)
    assert.equal((await shop.api.delete(`/api/v1/automations/${auto.id}`)).status, 204)
  })
})
