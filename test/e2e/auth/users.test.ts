import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant } from '../../support/harness.ts'
import { type Api, invitedAndSignedIn, type Person, signIn, tokenOf } from '../../support/people.ts'
import { Browser, type ListeningApps, startListeningApps } from '../../support/web.ts'

describe('staff accounts', () => {
  let apps: ListeningApps
  let merchant: Merchant
  let owner: Api
  let manager: Person
  let staff: Person

  before(async () => {
    apps = await startListeningApps()
    merchant = await createMerchant(apps.app)
    owner = clientFor(apps.app.api, merchant.token)
    manager = await invitedAndSignedIn(apps.app, owner, 'manager')
    staff = await invitedAndSignedIn(apps.app, manager.api, 'staff')
  })
  after(() => apps.close())

  it('answers each role on each users, settings and audit route as its scopes say', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/users'],
      ['GET', `/api/v1/users/${merchant.userId}`],
      ['GET', '/api/v1/users/invitations'],
      ['POST', '/api/v1/users', { email: 'table@staff.example', role: 'staff' }],
      ['GET', '/api/v1/settings'],
      ['PATCH', '/api/v1/settings', { receipt_footer: 'Thank you!' }],
      ['GET', '/api/v1/audit-log'],
    ]
    const expected: Record<string, number[]> = {
      owner: [200, 200, 200, 201, 200, 200, 200],
      manager: [200, 200, 200, 201, 200, 200, 200],
      staff: [403, 403, 403, 403, 200, 403, 403],
    }
    const callers: Record<string, Api> = { owner, manager: manager.api, staff: staff.api }
    for (const [role, api] of Object.entries(callers)) {
      const statuses = []
      for (const [method, url, body] of routes) {
        const res =
          method === 'GET'
            ? await api.get(url)
            : method === 'POST'
              ? await api.post(url, body)
              : await api.patch(url, body)
        statuses.push(res.status)
      }
      assert.deepEqual(statuses, expected[role], role)
    }
  })

  it('lists users with their role and status, and one by id, never a password hash', async () => {
    const list = await owner.get('/api/v1/users?limit=2')
    assert.equal(list.status, 200)
    assert.equal(list.body.data.length, 2)
    assert.equal(list.body.pagination.hasMore, true)
    const rest = await owner.get(`/api/v1/users?limit=50&cursor=${list.body.pagination.nextCursor}`)
    const all = [...list.body.data, ...rest.body.data]
    assert.deepEqual(new Set(all.map((u: { role: string }) => u.role)), new Set(['owner', 'manager', 'staff']))
    assert.ok(all.every((u: Record<string, unknown>) => !('password_hash' in u) && u.status === 'active'))
    const staffOnly = await owner.get('/api/v1/users?role=staff')
    assert.deepEqual(
      staffOnly.body.data.map((u: { id: string }) => u.id),
      [staff.id],
    )
    assert.equal((await owner.get('/api/v1/users/usr_nobody')).status, 404)
  })

  it('lets a manager invite and manage staff only, never raise anyone to manager or owner', async () => {
    for (const role of ['manager', 'owner']) {
      const res = await manager.api.post('/api/v1/users', { email: `${role}-by-manager@staff.example`, role })
      assert.equal(res.status, 403)
      assert.equal(res.body.code, 'ROLE_NOT_ALLOWED')
      assert.equal(res.body.errors[0].field, 'role')
    }
    const raise = await manager.api.patch(`/api/v1/users/${staff.id}`, { role: 'manager' })
    assert.equal(raise.status, 403)
    assert.equal((await manager.api.patch(`/api/v1/users/${merchant.userId}`, { name: 'Boss' })).status, 403)
    const renamed = await manager.api.patch(`/api/v1/users/${staff.id}`, { name: 'Sam' })
    assert.equal(renamed.status, 200)
    assert.deepEqual([renamed.body.data.name, renamed.body.data.version], ['Sam', 2])
    assert.equal((await owner.patch(`/api/v1/users/${staff.id}`, { name: 'Sam T' }, { 'if-match': '1' })).status, 409)
  })

  it('keeps an active owner: the last one can be neither demoted nor deactivated, even by two at once', async () => {
    for (const body of [{ role: 'manager' }, { active: false }]) {
      const res = await owner.patch(`/api/v1/users/${merchant.userId}`, body)
      assert.equal(res.status, 409)
      assert.equal(res.body.code, 'LAST_OWNER')
    }
    const second = await invitedAndSignedIn(apps.app, owner, 'owner')
    // Each owner deactivates the other at the same moment: exactly one wins, one owner stays. The other is refused
    // as the last owner or, when the winner's commit came first, as a deactivated user (its token revoked, or its
    // user found inactive).
    const [a, b] = await Promise.all([
      owner.patch(`/api/v1/users/${second.id}`, { active: false }),
      second.api.patch(`/api/v1/users/${merchant.userId}`, { active: false }),
    ])
    if (b.status === 200) {
      // The first owner was the one let go: bring them back through the second, for the tests after this one.
      const fresh = await signIn(apps.app, second.email, second.password)
      assert.equal((await fresh.api.patch(`/api/v1/users/${merchant.userId}`, { active: true })).status, 200)
      merchant.token = (await signIn(apps.app, merchant.email, merchant.password)).accessToken
      owner = clientFor(apps.app.api, merchant.token)
    }
    assert.equal([a, b].filter((r) => r.status === 200).length, 1, JSON.stringify([a.body, b.body]))
    const loser = a.status === 200 ? b : a
    assert.ok([401, 403, 409].includes(loser.status), JSON.stringify(loser.body))
    const owners = await owner.get('/api/v1/users?role=owner&status=active')
    assert.ok(owners.body.data.length >= 1)
  })

  it('ends every session of a deactivated user at once: API tokens, refresh tokens and the web app', async () => {
    // An owner, whom the web app's pages let in.
    const leaving = await invitedAndSignedIn(apps.app, owner, 'owner')
    const web = new Browser(apps.appUrl)
    assert.equal((await web.signIn(leaving.email, leaving.password)).status, 303)
    assert.equal((await web.get('/dashboard/apps')).status, 200)

    const res = await owner.patch(`/api/v1/users/${leaving.id}`, { active: false })
    assert.equal(res.status, 200)
    assert.equal(res.body.data.status, 'deactivated')
    assert.equal((await leaving.api.get('/api/v1/orders')).status, 401)
    const refresh = await clientFor(apps.app.api).post('/api/v1/auth/refresh', { refreshToken: leaving.refreshToken })
    assert.equal(refresh.status, 401)
    const login = await clientFor(apps.app.api).post('/api/v1/auth/login', {
      email: leaving.email,
      password: leaving.password,
    })
    assert.equal(login.status, 401)
    const page = await web.get('/dashboard/apps')
    assert.equal(page.status, 303)
    assert.match(String(page.headers.get('location')), /\/login/)

    const events = await owner.get('/api/v1/events?type=user.deactivated')
    assert.ok(events.body.data.some((e: { data: { id: string } }) => e.data.id === leaving.id))
    const audit = await owner.get(`/api/v1/audit-log?record_id=${leaving.id}&action=user.deactivated`)
    assert.equal(audit.body.data.length, 1)
    assert.deepEqual(audit.body.data[0].changes, { active: { from: true, to: false } })
    assert.equal(audit.body.data[0].actor.user_id, merchant.userId)
  })

  it('ends the sessions of a user whose role changes; a refresh takes the role of today', async () => {
    const demoted = await invitedAndSignedIn(apps.app, owner, 'manager')
    assert.equal((await owner.patch(`/api/v1/users/${demoted.id}`, { role: 'staff' })).status, 200)
    assert.equal((await demoted.api.get('/api/v1/users')).status, 401)
    const again = await signIn(apps.app, demoted.email, demoted.password)
    const me = await again.api.get('/api/v1/auth/me')
    assert.equal(me.body.data.role, 'staff')
    assert.ok(!me.body.data.scopes.includes('users:read'))

    // A role changed outside the API (SQL, the CLI) reaches the next refresh: scopes come from the role, not the
    // session, both ways.
    const setRole = (role: string, id: string) =>
      apps.app.runtime.database.transaction(merchant.orgId, (q) =>
        q.query('UPDATE users SET role = $3 WHERE org_id = $1 AND id = $2', [merchant.orgId, id, role]),
      )
    const scopesAfterRefresh = async (refreshToken: string) => {
      const refreshed = await clientFor(apps.app.api).post('/api/v1/auth/refresh', { refreshToken })
      assert.equal(refreshed.status, 200)
      return (await clientFor(apps.app.api, refreshed.body.data.accessToken).get('/api/v1/auth/me')).body.data.scopes
    }
    await setRole('manager', demoted.id)
    assert.ok((await scopesAfterRefresh(again.refreshToken)).includes('users:read'))
    const manager2 = await invitedAndSignedIn(apps.app, owner, 'manager')
    await setRole('staff', manager2.id)
    const demotedScopes = await scopesAfterRefresh(manager2.refreshToken)
    assert.ok(!demotedScopes.includes('users:read') && demotedScopes.includes('orders:write'))
  })

  it('invites: the link without SMTP, pending until accepted, replaced by a new one, revocable', async () => {
    const email = 'new-cashier@staff.example'
    const first = await owner.post('/api/v1/users', { email, role: 'staff' })
    assert.equal(first.status, 201)
    assert.equal(first.body.data.delivery, 'link')
    assert.ok(first.body.data.url.startsWith(`${apps.appUrl}/invite/inv_`))
    const second = await owner.post('/api/v1/users', { email, role: 'staff', name: 'Jo' })
    const pending = await owner.get('/api/v1/users/invitations')
    const mine = pending.body.data.filter((i: { email: string }) => i.email === email)
    assert.deepEqual(
      mine.map((i: { id: string; status: string }) => [i.id, i.status]),
      [[second.body.data.id, 'pending']],
    )
    const anonymous = clientFor(apps.app.api)
    const stale = await anonymous.post('/api/v1/auth/invitations/accept', {
      token: tokenOf(first.body.data.url),
      password: 'a long cashier passphrase',
    })
    assert.equal(stale.status, 422)
    assert.equal((await owner.delete(`/api/v1/users/invitations/${second.body.data.id}`)).status, 204)
    const revoked = await anonymous.post('/api/v1/auth/invitations/accept', {
      token: tokenOf(second.body.data.url),
      password: 'a long cashier passphrase',
    })
    assert.equal(revoked.status, 422)
    assert.equal((await owner.delete(`/api/v1/users/invitations/${second.body.data.id}`)).status, 404)

    // A manager cannot replace an owner's pending invitation by inviting the same e-mail as staff.
    await owner.post('/api/v1/users', { email: 'future-owner@staff.example', role: 'owner' })
    const replaced = await manager.api.post('/api/v1/users', { email: 'future-owner@staff.example', role: 'staff' })
    assert.deepEqual([replaced.status, replaced.body.code], [403, 'ROLE_NOT_ALLOWED'])
    const stillPending = (await owner.get('/api/v1/users/invitations')).body.data
    assert.ok(
      stillPending.some(
        (i: { email: string; role: string }) => i.email === 'future-owner@staff.example' && i.role === 'owner',
      ),
    )

    const taken = await owner.post('/api/v1/users', { email: staff.email, role: 'staff' })
    assert.equal(taken.status, 409)
    assert.equal(taken.body.code, 'EMAIL_TAKEN')

    const joined = await invitedAndSignedIn(apps.app, owner, 'staff')
    const events = await owner.get('/api/v1/events?type=user.joined')
    assert.ok(events.body.data.some((e: { data: { id: string } }) => e.data.id === joined.id))
  })

  it("lets a held link guess an existing account's password only as fast as a sign-in", async () => {
    const elsewhere = await createMerchant(apps.app, { name: 'Elsewhere' })
    const invited = await owner.post('/api/v1/users', { email: elsewhere.email, role: 'staff' })
    const statuses = []
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await clientFor(apps.app.api).post('/api/v1/auth/invitations/accept', {
            token: tokenOf(invited.body.data.url),
            password: `guess number ${i}`,
          })
        ).status,
      )
    assert.equal(statuses[0], 422)
    assert.equal(statuses.at(-1), 429)
  })

  it('refuses a common password when an invitation is accepted', async () => {
    const invited = await owner.post('/api/v1/users', { email: 'weak@staff.example', role: 'staff' })
    const res = await clientFor(apps.app.api).post('/api/v1/auth/invitations/accept', {
      token: tokenOf(invited.body.data.url),
      password: 'password123',
    })
    assert.equal(res.status, 422)
    assert.deepEqual([res.body.errors[0].field, res.body.errors[0].code], ['password', 'too_common'])
  })
})
