import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Role } from '../../../src/platform/http/context.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { authorizeUrl, Browser, type ListeningApps, startListeningApps } from '../../support/web.ts'

/**
 * Money and settings are not the till's (docs/decisions.md "Scopes"): issuing, loading or disabling a gift card
 * outside a sale takes `gift_cards:write`, tax rates and payment methods `settings:write`; staff hold neither,
 * and only an owner or a manager may connect an app.
 */
describe('scopes that match the till', () => {
  let apps: ListeningApps
  let merchant: Merchant
  const users: Partial<Record<Role, { email: string; password: string; token: string }>> = {}

  async function user(role: Role) {
    const email = `${role}-${Date.now()}@example.test`
    const password = `${role}-password-1`
    await apps.app.runtime.database.transaction(merchant.orgId, (q) =>
      apps.app.services.auth.createUser(q, { orgId: merchant.orgId, email, role, password }),
    )
    const login = await clientFor(apps.app.api).post('/api/v1/auth/login', { email, password })
    assert.equal(login.status, 200)
    users[role] = { email, password, token: login.body.data.accessToken }
  }

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    await user('staff')
    await user('manager')
  })
  after(() => apps.close())

  const appToken = (scopes: string[]) =>
    apps.app.runtime.accessTokens.sign({
      sub: 'app_test',
      orgId: merchant.orgId,
      scopes,
      sid: `sess_app_${scopes.join('_')}`,
      clientId: 'app_test',
      actorKind: 'app',
      userId: merchant.userId,
    })

  it('refuses staff and orders:write apps gift cards, tax rates and payment methods; managers and scoped apps pass', async () => {
    const staff = clientFor(apps.app.api, users.staff!.token)
    const manager = clientFor(apps.app.api, users.manager!.token)
    const till = clientFor(apps.app.api, await appToken(['orders:write', 'orders:read', 'payments:write']))
    const cards = clientFor(apps.app.api, await appToken(['gift_cards:write']))
    const settings = clientFor(apps.app.api, await appToken(['settings:write']))

    for (const api of [staff, till]) {
      const issue = await api.post('/api/v1/gift-cards', { initial_balance: 500 })
      assert.equal(issue.status, 403)
      assert.match(String(issue.headers['www-authenticate']), /insufficient_scope.*gift_cards:write/)
      assert.equal((await api.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })).status, 403)
      assert.equal((await api.put('/api/v1/payments/methods', { methods: ['card'] })).status, 403)
    }

    const issued = await cards.post('/api/v1/gift-cards', { initial_balance: 25 })
    assert.equal(issued.status, 201, JSON.stringify(issued.body))
    assert.equal((await staff.post(`/api/v1/gift-cards/${issued.body.data.id}/load`, { amount: 1000 })).status, 403)
    assert.equal((await manager.post(`/api/v1/gift-cards/${issued.body.data.id}/load`, { amount: 5 })).status, 200)
    assert.equal((await staff.post(`/api/v1/gift-cards/${issued.body.data.id}/disable`, {})).status, 403)
    // Staff still see the card: a balance is looked up at the till.
    assert.equal((await staff.get(`/api/v1/gift-cards/${issued.body.data.id}`)).body.data.balance, 30)

    const rate = await manager.post('/api/v1/tax-rates', { name: 'GST', rate: 15 })
    assert.equal(rate.status, 201, JSON.stringify(rate.body))
    assert.equal((await staff.patch(`/api/v1/tax-rates/${rate.body.data.id}`, { rate: 0 })).status, 403)
    assert.equal((await settings.patch(`/api/v1/tax-rates/${rate.body.data.id}`, { rate: 12.5 })).status, 200)
    assert.equal((await staff.get('/api/v1/tax-rates')).status, 200)
    assert.equal((await settings.put('/api/v1/payments/methods', { methods: ['card', 'cash'] })).status, 200)
  })

  it('lets owners, managers and loyalty:adjust apps add points by hand, capped per call; staff and loyalty:write apps not', async () => {
    // Before, loyalty:write (every till) could mint up to 100,000,000 points a call for anyone.
    const owner = clientFor(apps.app.api, merchant.token)
    assert.equal((await owner.post('/api/v1/loyalty/programs', { name: 'Points' })).status, 201)
    const customer = await owner.post('/api/v1/customers', { first_name: 'Lia', email: 'lia@adjust.example' })
    const accrue = (api: ReturnType<typeof clientFor>, points: number) =>
      api.post('/api/v1/loyalty/points/accrue', { customer_id: customer.body.data.id, points, reason: 'goodwill' })
    const staff = clientFor(apps.app.api, users.staff!.token)
    const loyaltyApp = clientFor(apps.app.api, await appToken(['loyalty:read', 'loyalty:write']))
    for (const api of [staff, loyaltyApp]) {
      const refused = await accrue(api, 10)
      assert.equal(refused.status, 403)
    }
    assert.equal((await accrue(clientFor(apps.app.api, users.manager!.token), 10)).status, 201)
    assert.equal((await accrue(clientFor(apps.app.api, await appToken(['loyalty:adjust'])), 10)).status, 201)
    const tooMany = await accrue(owner, 100_001)
    assert.equal(tooMany.status, 422)
    assert.equal(tooMany.body.errors[0].field, 'points')
    const member = await owner.get(`/api/v1/loyalty/members/${customer.body.data.id}`)
    assert.equal(member.body.data.balance, 20)
  })

  it('lets only an owner or a manager consent to an app', async () => {
    const created = await apps.app.services.oauth.apps.create(
      systemContext(apps.app.runtime.database, merchant.orgId, ['webhooks:write']),
      { name: 'Till Helper', redirectUris: ['http://127.0.0.1:9/cb'], allowedScopes: ['orders:read'] },
    )
    const url = authorizeUrl(apps.appUrl, {
      response_type: 'code',
      client_id: created.app.client_id,
      redirect_uri: 'http://127.0.0.1:9/cb',
      scope: 'orders:read',
      state: 's1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })
    const staff = new Browser(apps.appUrl)
    assert.equal((await staff.signIn(users.staff!.email, users.staff!.password)).status, 303)
    const refused = await staff.get(url)
    assert.equal(refused.status, 403)
    assert.match(
      await refused.text(),
      /Only the store&#39;s owner or a manager can connect an application|Only the store's owner or a manager/,
    )
    const manager = new Browser(apps.appUrl)
    assert.equal((await manager.signIn(users.manager!.email, users.manager!.password)).status, 303)
    const callback = await manager.consent(url)
    assert.ok(callback.searchParams.get('code'), callback.toString())
  })
})
