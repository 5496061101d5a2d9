import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { NOT_STORED } from '../../../src/platform/http/idempotency.ts'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('partner provisioning of reseller tenants', () => {
  let app: TestApp
  let partnerOrg: Merchant
  let partner: { clientId: string; clientSecret: string; token: string }
  let otherPartner: { clientId: string; clientSecret: string; token: string }

  /** A confidential partner app of `org` and a client-credentials token for it, through the real token endpoint. */
  async function partnerApp(org: Merchant, allowedScopes?: string[], partnerPlans?: string[]) {
    const ctx = systemContext(app.runtime.database, org.orgId, ['webhooks:write'])
    const { app: created, clientSecret } = await app.services.oauth.apps.create(ctx, {
      name: 'Reseller',
      redirectUris: ['https://partner.example/callback'],
      partner: true,
      allowedScopes,
      partnerPlans,
    })
    const token = await clientFor(app.api).post('/api/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: created.client_id,
      client_secret: clientSecret,
    })
    assert.equal(token.status, 200, JSON.stringify(token.body))
    assert.match(token.body.scope, /partners:write/)
    return { clientId: created.client_id, clientSecret: clientSecret!, token: token.body.access_token as string }
  }

  const tenantBody = (suffix: string, extra: object = {}) => ({
    name: `Corner Cafe ${suffix}`,
    owner_email: `owner-${suffix}-${Date.now()}@cafe.example`,
    plan: 'growth',
    currency: 'NZD',
    ...extra,
  })

  before(async () => {
    app = await startTestApp()
    partnerOrg = await createMerchant(app, { name: 'Reseller Ltd' })
    partner = await partnerApp(partnerOrg, ['catalog:read', 'catalog:write', 'orders:read'])
    otherPartner = await partnerApp(await createMerchant(app, { name: 'Other Reseller' }))
  })
  after(() => app.close())

  it('creates a tenant org with its plan, currency, an owner invitation and a connection to the partner', async () => {
    const body = tenantBody('a')
    const res = await clientFor(app.api, partner.token).post('/api/v1/partners/tenants', body)
    assert.equal(res.status, 201, JSON.stringify(res.body))
    const tenant = res.body.data
    assert.match(tenant.id, /^ptn_/)
    assert.match(tenant.org_id, /^org_/)
    assert.notEqual(tenant.org_id, partnerOrg.orgId)
    assert.equal(tenant.name, body.name)
    assert.equal(tenant.plan, 'growth')
    assert.equal(tenant.currency, 'NZD')
    assert.equal(tenant.owner_email, body.owner_email)
    assert.equal(tenant.client_id, partner.clientId)
    assert.deepEqual(tenant.scopes, ['catalog:read', 'catalog:write', 'orders:read'])
    assert.match(tenant.invitation.url, /^http:\/\/localhost:3001\/invite\/inv_[A-Za-z0-9_-]+$/)
    assert.ok(new Date(tenant.invitation.expires_at).getTime() > Date.now() + 6 * 86_400_000)

    // Connected: the partner gets a token for the tenant with the connection's scopes and works in it.
    const tenantToken = await clientFor(app.api).post('/api/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      org_id: tenant.org_id,
    })
    assert.equal(tenantToken.status, 200, JSON.stringify(tenantToken.body))
    assert.equal(tenantToken.body.org_id, tenant.org_id)
    const inTenant = clientFor(app.api, tenantToken.body.access_token)
    const product = await inTenant.post('/api/v1/products', { name: 'Flat white', sku: 'FW', base_price: 5.5 })
    assert.equal(product.status, 201)
    assert.equal(product.body.data.currency, 'NZD')
  })

  it('lets the invited owner set a password once, then log in to the new org', async () => {
    const body = tenantBody('b')
    const created = await clientFor(app.api, partner.token).post('/api/v1/partners/tenants', body)
    const token = created.body.data.invitation.url.split('/invite/')[1]
    const api = clientFor(app.api)
    // Before accepting there is no password to log in with.
    assert.equal(
      (await api.post('/api/v1/auth/login', { email: body.owner_email, password: 'anything-at-all' })).status,
      401,
    )

    const short = await api.post('/api/v1/auth/invitations/accept', { token, password: 'short' })
    assert.equal(short.status, 422)
    assert.equal(short.body.errors[0].field, 'password')

    const accepted = await api.post('/api/v1/auth/invitations/accept', { token, password: 'a-long-enough-password' })
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body))
    assert.deepEqual(accepted.body.data, {
      user_id: accepted.body.data.user_id,
      email: body.owner_email,
      org_id: created.body.data.org_id,
    })

    const login = await api.post('/api/v1/auth/login', { email: body.owner_email, password: 'a-long-enough-password' })
    assert.equal(login.status, 200)
    assert.equal(login.body.data.user.orgId, created.body.data.org_id)
    const me = await clientFor(app.api, login.body.data.accessToken).get('/api/v1/auth/me')
    assert.equal(me.body.data.role, 'owner')

    const again = await api.post('/api/v1/auth/invitations/accept', { token, password: 'another-long-password' })
    assert.equal(again.status, 422)
    assert.equal(again.body.errors[0].field, 'token')
    assert.equal(
      (await api.post('/api/v1/auth/invitations/accept', { token: 'inv_forged', password: 'a-long-enough-password' }))
        .status,
      422,
    )
  })

  it('refuses an expired invitation', async () => {
    const created = await clientFor(app.api, partner.token).post('/api/v1/partners/tenants', tenantBody('c'))
    const token = created.body.data.invitation.url.split('/invite/')[1]
    await app.runtime.database.transaction(created.body.data.org_id, (q) =>
      q.query("UPDATE invitations SET expires_at = now() - interval '1 second' WHERE org_id = $1", [
        created.body.data.org_id,
      ]),
    )
    const res = await clientFor(app.api).post('/api/v1/auth/invitations/accept', {
      token,
      password: 'a-long-enough-password',
    })
    assert.equal(res.status, 422)
  })

  it('replays the first answer for the same Idempotency-Key and creates one tenant', async () => {
    const api = clientFor(app.api, partner.token)
    const body = tenantBody('d')
    const key = { 'idempotency-key': `tenant-${Date.now()}` }
    const first = await api.post('/api/v1/partners/tenants', body, key)
    assert.equal(first.status, 201, JSON.stringify(first.body))
    const second = await api.post('/api/v1/partners/tenants', body, key)
    assert.equal(second.status, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    // The one-time invitation link is shown once: the replay says so instead of repeating it.
    assert.equal(second.body.data.invitation.url, NOT_STORED)
    assert.deepEqual({ ...second.body.data, invitation: null }, { ...first.body.data, invitation: null })
    const reused = await api.post('/api/v1/partners/tenants', { ...body, plan: 'pro' }, key)
    assert.equal(reused.status, 422)
    const all = await api.get('/api/v1/partners/tenants?limit=200')
    assert.equal(all.body.data.filter((t: { owner_email: string }) => t.owner_email === body.owner_email).length, 1)
  })

  it('lists its own tenants with the platform pagination, and only its own', async () => {
    await clientFor(app.api, otherPartner.token).post('/api/v1/partners/tenants', tenantBody('other'))
    const api = clientFor(app.api, partner.token)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: Awaited<ReturnType<typeof api.get>> = await api.get(
        `/api/v1/partners/tenants?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      assert.equal(page.status, 200)
      for (const t of page.body.data as { id: string; client_id: string }[]) {
        assert.equal(t.client_id, partner.clientId)
        seen.push(t.id)
      }
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.equal(seen.length, 4)
    assert.equal(new Set(seen).size, 4)
    const one = await api.get(`/api/v1/partners/tenants/${seen[0]}`)
    assert.equal(one.status, 200)
    assert.equal(one.body.data.invitation, undefined)
    const theirs = await clientFor(app.api, otherPartner.token).get('/api/v1/partners/tenants')
    assert.equal(theirs.body.data.length, 1)
    assert.equal((await clientFor(app.api, otherPartner.token).get(`/api/v1/partners/tenants/${seen[0]}`)).status, 404)
  })

  it('refuses merchant tokens and tokens without partners:write with 403', async () => {
    const merchant = clientFor(app.api, partnerOrg.token)
    const res = await merchant.post('/api/v1/partners/tenants', tenantBody('e'))
    assert.equal(res.status, 403)
    assert.match(String(res.headers['www-authenticate']), /insufficient_scope/)
    assert.equal((await merchant.get('/api/v1/partners/tenants')).status, 403)
    assert.equal((await clientFor(app.api).post('/api/v1/partners/tenants', tenantBody('f'))).status, 401)
  })

  it('refuses bad input with a 422 naming the field and creates nothing', async () => {
    const api = clientFor(app.api, partner.token)
    const before = (await api.get('/api/v1/partners/tenants?limit=200')).body.data.length
    const cases: [object, string][] = [
      [{ ...tenantBody('g'), currency: 'XXQ' }, 'currency'],
      [{ ...tenantBody('h'), plan: 'gold' }, 'plan'],
      [{ ...tenantBody('i'), owner_email: 'not-an-email' }, 'owner_email'],
      [{ ...tenantBody('j'), colour: 'blue' }, 'colour'],
      [{ ...tenantBody('k'), scopes: ['payments:write'] }, 'scopes'],
      [{ ...tenantBody('l'), scopes: ['partners:write'] }, 'scopes'],
      [{ owner_email: 'x@cafe.example' }, 'name'],
    ]
    for (const [body, field] of cases) {
      const res = await api.post('/api/v1/partners/tenants', body)
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`)
      assert.equal(res.body.errors[0].field, field)
    }
    assert.equal((await api.get('/api/v1/partners/tenants?limit=200')).body.data.length, before)
  })

  it('answers alike whether the owner e-mail is registered; a registered person joins with their own password', async () => {
    const api = clientFor(app.api, partner.token)
    const free = await api.post('/api/v1/partners/tenants', tenantBody('m'))
    const taken = await api.post('/api/v1/partners/tenants', { ...tenantBody('n'), owner_email: partnerOrg.email })
    assert.equal(free.status, 201)
    assert.equal(taken.status, 201, JSON.stringify(taken.body))
    assert.deepEqual(Object.keys(taken.body.data).sort(), Object.keys(free.body.data).sort())
    assert.deepEqual(Object.keys(taken.headers).sort(), Object.keys(free.headers).sort())
    assert.equal(taken.body.data.owner_email, partnerOrg.email)

    // The link's holder learns it when accepting: a person with an account joins with its password (which
    // proves the e-mail is theirs); another password is refused, the account untouched and the link still usable.
    const token = taken.body.data.invitation.url.split('/invite/')[1]
    const accept = (password: string) => clientFor(app.api).post('/api/v1/auth/invitations/accept', { token, password })
    const refused = await accept('a-long-enough-password')
    assert.deepEqual(
      [refused.status, refused.body.errors[0].field, refused.body.errors[0].code],
      [422, 'password', 'incorrect'],
    )
    const anonymous = clientFor(app.api)
    const before = await anonymous.post('/api/v1/auth/login', {
      email: partnerOrg.email,
      password: partnerOrg.password,
    })
    assert.equal(before.body.data.user.orgId, partnerOrg.orgId)

    const joined = await accept(partnerOrg.password)
    assert.equal(joined.status, 200, JSON.stringify(joined.body))
    assert.equal(joined.body.data.org_id, taken.body.data.org_id)
    // One person, two stores: a login names the store, or is told which it may choose.
    const choose = await anonymous.post('/api/v1/auth/login', {
      email: partnerOrg.email,
      password: partnerOrg.password,
    })
    assert.equal(choose.status, 409)
    assert.equal(choose.body.code, 'ORG_REQUIRED')
    assert.deepEqual(
      choose.body.orgs.map((o: { id: string }) => o.id).sort(),
      [partnerOrg.orgId, taken.body.data.org_id].sort(),
    )
    const wrong = await anonymous.post('/api/v1/auth/login', { email: partnerOrg.email, password: 'not the password' })
    assert.equal(wrong.status, 401, 'a wrong password is a 401, never the list of stores')
    for (const orgId of [partnerOrg.orgId, taken.body.data.org_id]) {
      const login = await anonymous.post('/api/v1/auth/login', {
        email: partnerOrg.email,
        password: partnerOrg.password,
        org_id: orgId,
      })
      assert.equal(login.status, 200)
      assert.equal(login.body.data.user.orgId, orgId)
    }
    assert.equal((await accept(partnerOrg.password)).status, 422, 'the link works once')
  })

  it('provisions only on the plans the operator allowed the partner (self-serve plans unless told)', async () => {
    const starterOnly = await partnerApp(await createMerchant(app, { name: 'Small Reseller' }), undefined, ['starter'])
    const api = clientFor(app.api, starterOnly.token)
    const refused = await api.post('/api/v1/partners/tenants', tenantBody('plan-g'))
    assert.equal(refused.status, 422)
    assert.equal(refused.body.errors[0].field, 'plan')
    assert.equal(refused.body.errors[0].code, 'plan_not_allowed')
    assert.equal((await api.post('/api/v1/partners/tenants', tenantBody('plan-s', { plan: 'starter' }))).status, 201)
    // The default partner (no plans named) may not provision enterprise tenants.
    const enterprise = await clientFor(app.api, partner.token).post(
      '/api/v1/partners/tenants',
      tenantBody('plan-e', { plan: 'enterprise' }),
    )
    assert.equal(enterprise.status, 422)
  })
})
