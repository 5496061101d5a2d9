import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'
import { type Api, invitedAndSignedIn, type Person } from '../../support/people.ts'

describe('sign-in at a paired till with a PIN', () => {
  let app: TestApp
  let merchant: Merchant
  let owner: Api
  let manager: Person
  let cashiers: Person[]
  let registerId: string
  let locationId: string
  const anonymous = () => clientFor(app.api)

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    owner = clientFor(app.api, merchant.token)
    manager = await invitedAndSignedIn(app, owner, 'manager')
    cashiers = [
      await invitedAndSignedIn(app, manager.api, 'staff'),
      await invitedAndSignedIn(app, manager.api, 'staff'),
    ]
    const location = await owner.post('/api/v1/locations', { name: 'Cafe' })
    locationId = location.body.data.id
    const register = await owner.post('/api/v1/registers', { location_id: locationId, name: 'Front' })
    assert.equal(register.status, 201, JSON.stringify(register.body))
    registerId = register.body.data.id
  })
  after(() => app.close())

  async function pairedTill(): Promise<{ deviceId: string; deviceToken: string }> {
    const pairing = await manager.api.post(`/api/v1/registers/${registerId}/pairing`, { name: 'Front counter' })
    assert.equal(pairing.status, 201, JSON.stringify(pairing.body))
    assert.match(pairing.body.data.code, /^\d{6}$/)
    const paired = await anonymous().post('/api/v1/devices/pair', { code: pairing.body.data.code })
    assert.equal(paired.status, 201, JSON.stringify(paired.body))
    assert.equal(paired.body.data.register_id, registerId)
    // The code works once.
    assert.equal((await anonymous().post('/api/v1/devices/pair', { code: pairing.body.data.code })).status, 401)
    return { deviceId: paired.body.data.device_id, deviceToken: paired.body.data.device_token }
  }

  const signIn = (deviceToken: string, userId: string, pin: string) =>
    anonymous().post('/api/v1/auth/pin', { device_token: deviceToken, user_id: userId, pin })

  it('pairs a till once, lists its staff without PIN hashes, and signs cashiers in with their own PINs', async () => {
    const till = await pairedTill()
    assert.equal((await cashiers[0].api.put('/api/v1/auth/pin', { pin: '1234' })).body.errors[0].code, 'too_simple')
    assert.equal((await cashiers[0].api.put('/api/v1/auth/pin', { pin: '12a4' })).body.errors[0].code, 'invalid_format')
    assert.equal((await cashiers[0].api.put('/api/v1/auth/pin', { pin: '2580' })).status, 204)
    assert.equal((await cashiers[1].api.put('/api/v1/auth/pin', { pin: '739146' })).status, 204)

    const staff = await anonymous().post('/api/v1/devices/staff', { device_token: till.deviceToken })
    assert.equal(staff.status, 200)
    const first = staff.body.data.find((s: { id: string }) => s.id === cashiers[0].id)
    assert.deepEqual(Object.keys(first).sort(), ['has_pin', 'id', 'name', 'role'])
    assert.equal(first.has_pin, true)
    assert.ok(!JSON.stringify(staff.body).includes('argon2'))

    const session = await signIn(till.deviceToken, cashiers[0].id, '2580')
    assert.equal(session.status, 200, JSON.stringify(session.body))
    const me = await clientFor(app.api, session.body.data.accessToken).get('/api/v1/auth/me')
    assert.deepEqual(
      [me.body.data.id, me.body.data.role, me.body.data.registerId],
      [cashiers[0].id, 'staff', registerId],
    )
    // The register survives a refresh.
    const refreshed = await anonymous().post('/api/v1/auth/refresh', { refreshToken: session.body.data.refreshToken })
    const again = await clientFor(app.api, refreshed.body.data.accessToken).get('/api/v1/auth/me')
    assert.equal(again.body.data.registerId, registerId)

    // Another cashier's PIN is not this one's, and a PIN without the device credential signs in nowhere.
    assert.equal((await signIn(till.deviceToken, cashiers[1].id, '2580')).status, 401)
    assert.equal((await signIn('otd_not-a-device', cashiers[0].id, '2580')).status, 401)
    assert.equal((await signIn(till.deviceToken, cashiers[1].id, '739146')).status, 200)
  })

  it('records the till where an action was taken: the owner sees who refunded what, when, at which till', async () => {
    const till = await pairedTill()
    const session = await signIn(till.deviceToken, manager.id, '4826')
    assert.equal(session.status, 401, 'no PIN set yet')
    await manager.api.put('/api/v1/auth/pin', { pin: '4826' })
    const atTill = clientFor(app.api, (await signIn(till.deviceToken, manager.id, '4826')).body.data.accessToken)
    const card = await atTill.post('/api/v1/gift-cards', { initial_balance: 20 })
    assert.equal(card.status, 201)
    const entry = (await owner.get(`/api/v1/audit-log?record_id=${card.body.data.id}`)).body.data[0]
    assert.deepEqual([entry.actor.user_id, entry.register_id], [manager.id, registerId])
    // A sale records who made it and at which register; one made with a login token has no register.
    const product = await owner.post('/api/v1/products', { name: 'Flat white', sku: 'FW-1', base_price: 4.5 })
    await owner.post('/api/v1/inventory/adjust', {
      product_id: product.body.data.id,
      location_id: locationId,
      quantity: 10,
      reason: 'received',
    })
    const sale = await atTill.post('/api/v1/orders', {
      location_id: locationId,
      lines: [{ product_id: product.body.data.id, quantity: 1 }],
    })
    assert.equal(sale.status, 201, JSON.stringify(sale.body))
    assert.deepEqual([sale.body.data.sold_by, sale.body.data.register_id], [manager.id, registerId])
    const online = await owner.post('/api/v1/orders', {
      location_id: locationId,
      lines: [{ product_id: product.body.data.id, quantity: 1 }],
    })
    assert.deepEqual([online.body.data.sold_by, online.body.data.register_id], [merchant.userId, null])
  })

  it('locks a user on a till after five wrong PINs, even sent at once, and the till after twenty', async () => {
    const till = await pairedTill()
    const answers = await Promise.all(Array.from({ length: 8 }, () => signIn(till.deviceToken, cashiers[0].id, '0001')))
    const statuses = answers.map((a) => a.status).sort()
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429])
    // Locked: even the right PIN is refused on this till, with Retry-After.
    const locked = await signIn(till.deviceToken, cashiers[0].id, '2580')
    assert.equal(locked.status, 429)
    assert.equal(locked.body.code, 'PIN_LOCKED')
    assert.ok(Number(locked.headers['retry-after']) > 800)
    const lockout = await owner.get(`/api/v1/audit-log?action=user.pin_locked_out&record_id=${cashiers[0].id}`)
    assert.equal(lockout.body.data.length, 1)
    assert.equal(lockout.body.data[0].register_id, registerId)
    // On another till the same cashier still signs in.
    const other = await pairedTill()
    assert.equal((await signIn(other.deviceToken, cashiers[0].id, '2580')).status, 200)

    // Twenty wrong in a row, whoever types them (four each: no user is locked), lock the till for everyone.
    const users = [cashiers[1].id, manager.id, merchant.userId, 'usr_nobody_1', 'usr_nobody_2']
    const wrong = []
    for (let i = 0; i < 20; i++) wrong.push((await signIn(other.deviceToken, users[i % 5], '9999')).status)
    assert.deepEqual(new Set(wrong), new Set([401]))
    const refused = await signIn(other.deviceToken, cashiers[1].id, '739146')
    assert.equal(refused.status, 403)
    assert.equal(refused.body.code, 'DEVICE_LOCKED')
    const devices = await owner.get('/api/v1/devices?limit=200')
    assert.equal(devices.body.data.find((d: { id: string }) => d.id === other.deviceId).status, 'locked')
    assert.equal((await cashiers[0].api.post(`/api/v1/devices/${other.deviceId}/unlock`)).status, 403)
    assert.equal((await manager.api.post(`/api/v1/devices/${other.deviceId}/unlock`)).body.data.status, 'paired')
    assert.equal((await signIn(other.deviceToken, cashiers[1].id, '739146')).status, 200)
  })

  it("refuses a cashier's refund, void or large discount without a manager's PIN on the same till", async () => {
    const till = await pairedTill()
    const cashier = clientFor(app.api, (await signIn(till.deviceToken, cashiers[0].id, '2580')).body.data.accessToken)
    const product = await owner.post('/api/v1/products', { name: 'Bagel', sku: 'BG-1', base_price: 10 })
    const productId = product.body.data.id
    await owner.post('/api/v1/inventory/adjust', {
      product_id: productId,
      location_id: locationId,
      quantity: 50,
      reason: 'received',
    })
    const sell = (body: object = {}) =>
      cashier.post('/api/v1/orders', {
        location_id: locationId,
        lines: [{ product_id: productId, quantity: 2 }],
        ...body,
      })
    const manager_ = { user_id: manager.id, pin: '4826' }

    // Refund: refused alone, refused with a wrong PIN, done with the manager's; both people are recorded.
    const paid = (await sell()).body.data
    const payment = await cashier.post('/api/v1/payments', {
      order_id: paid.id,
      amount: paid.total,
      method: 'card',
      payment_method_token: 'pm_card_visa',
      capture: true,
    })
    assert.equal(payment.status, 201, JSON.stringify(payment.body))
    const alone = await cashier.post(`/api/v1/orders/${paid.id}/refund`, { amount: 5, reason: 'cold' })
    assert.deepEqual(
      [alone.status, alone.body.code, alone.body.errors[0].field],
      [403, 'APPROVAL_REQUIRED', 'approval'],
    )
    const wrong = await cashier.post(`/api/v1/orders/${paid.id}/refund`, {
      amount: 5,
      reason: 'cold',
      approval: { user_id: manager.id, pin: '1357' },
    })
    assert.deepEqual([wrong.status, wrong.body.errors[0].field], [422, 'approval.pin'])
    const byStaff = await cashier.post(`/api/v1/orders/${paid.id}/refund`, {
      amount: 5,
      approval: { user_id: cashiers[0].id, pin: '2580' },
    })
    assert.equal(byStaff.status, 403, 'a cashier cannot approve')
    const approved = await cashier.post(`/api/v1/orders/${paid.id}/refund`, {
      amount: 5,
      reason: 'cold',
      approval: manager_,
    })
    assert.equal(approved.status, 201, JSON.stringify(approved.body))
    assert.equal(approved.body.data.refunds.at(-1).approved_by, manager.id)
    const entry = (await owner.get(`/api/v1/audit-log?record_id=${paid.id}&action=order.refunded`)).body.data[0]
    assert.deepEqual(
      [entry.actor.user_id, entry.changes.approved_by, entry.register_id],
      [cashiers[0].id, manager.id, registerId],
    )
    // A manager's own session needs nobody.
    assert.equal((await manager.api.post(`/api/v1/orders/${paid.id}/refund`, { amount: 1 })).status, 201)

    // Void: the same.
    const open = (await sell()).body.data
    assert.equal((await cashier.patch(`/api/v1/orders/${open.id}/status`, { status: 'voided' })).status, 403)
    const voided = await cashier.patch(`/api/v1/orders/${open.id}/status`, { status: 'voided', approval: manager_ })
    assert.equal(voided.status, 200, JSON.stringify(voided.body))
    const history = (await owner.get(`/api/v1/orders/${open.id}`)).body.data.status_history
    assert.deepEqual([history.at(-1).to_status, history.at(-1).approved_by], ['voided', manager.id])
    const voidEntry = (await owner.get(`/api/v1/audit-log?record_id=${open.id}&action=order.voided`)).body.data[0]
    assert.equal(voidEntry.changes.approved_by, manager.id)

    // Discounts: up to the store's limit (20%) alone, above it with a manager.
    const small = await sell({ discounts: [{ type: 'percentage', value: 10, reason: 'regular' }] })
    assert.equal(small.status, 201)
    const large = await sell({ discounts: [{ type: 'amount', value: 6, reason: 'friend' }] })
    assert.deepEqual([large.status, large.body.code], [403, 'APPROVAL_REQUIRED'])
    const allowed = await sell({ discounts: [{ type: 'amount', value: 6, reason: 'friend' }], approval: manager_ })
    assert.equal(allowed.status, 201, JSON.stringify(allowed.body))
    assert.equal(allowed.body.data.discounts[0].approved_by, manager.id)
    const discounted = (await owner.get(`/api/v1/audit-log?record_id=${allowed.body.data.id}`)).body.data[0]
    assert.deepEqual(
      [
        discounted.action,
        discounted.actor.user_id,
        discounted.changes.approved_by,
        discounted.changes.discounts[0].amount_minor,
      ],
      ['order.discounted', cashiers[0].id, manager.id, 600],
    )

    // Lay-bys too: a cashier's own large discount, and a cancellation (it refunds every payment).
    const customer = (await owner.post('/api/v1/customers', { first_name: 'Lay', email: 'lay@by.example' })).body.data
      .id
    const layby = (body: object = {}) =>
      cashier.post('/api/v1/laybys', {
        customer_id: customer,
        location_id: locationId,
        lines: [{ product_id: productId, quantity: 2 }],
        deposit: { amount: 5, method: 'cash' },
        ...body,
      })
    const discountedLayby = await layby({ discounts: [{ type: 'percentage', value: 50, reason: 'friend' }] })
    assert.deepEqual([discountedLayby.status, discountedLayby.body.code], [403, 'APPROVAL_REQUIRED'])
    const opened = await layby()
    assert.equal(opened.status, 201, JSON.stringify(opened.body))
    const cancelAlone = await cashier.post(`/api/v1/laybys/${opened.body.data.id}/cancel`, {})
    assert.deepEqual([cancelAlone.status, cancelAlone.body.code], [403, 'APPROVAL_REQUIRED'])
    const cancelled = await cashier.post(`/api/v1/laybys/${opened.body.data.id}/cancel`, { approval: manager_ })
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body))

    // A manager's PIN approves at a paired till only, and the store decides what needs it.
    const atDesk = await cashiers[0].api.post(`/api/v1/orders/${paid.id}/refund`, { amount: 1, approval: manager_ })
    assert.deepEqual([atDesk.status, atDesk.body.code], [403, 'APPROVAL_REQUIRED'])
    const relaxed = await owner.patch('/api/v1/settings', {
      manager_approval: { voids: false, refunds: true, discount_percent_above: null },
    })
    assert.equal(relaxed.status, 200)
    const another = (await sell()).body.data
    assert.equal((await cashier.patch(`/api/v1/orders/${another.id}/status`, { status: 'voided' })).status, 200)
    assert.equal((await sell({ discounts: [{ type: 'percentage', value: 90, reason: 'staff meal' }] })).status, 201)
  })

  it('reports sales, refunds and voids by member of staff and by register', async () => {
    const shop = (await owner.post('/api/v1/locations', { name: 'Kiosk' })).body.data.id
    const kiosk = (await owner.post('/api/v1/registers', { location_id: shop, name: 'Kiosk' })).body.data.id
    const code = (await manager.api.post(`/api/v1/registers/${kiosk}/pairing`)).body.data.code
    const device = (await anonymous().post('/api/v1/devices/pair', { code })).body.data
    const cashier = clientFor(
      app.api,
      (await signIn(device.device_token, cashiers[0].id, '2580')).body.data.accessToken,
    )
    const product = (await owner.post('/api/v1/products', { name: 'Scone', sku: 'SC-1', base_price: 10 })).body.data.id
    await owner.post('/api/v1/inventory/adjust', {
      product_id: product,
      location_id: shop,
      quantity: 10,
      reason: 'received',
    })
    const sale = async (api: Api) => {
      const order = (
        await api.post('/api/v1/orders', { location_id: shop, lines: [{ product_id: product, quantity: 1 }] })
      ).body.data
      return order
    }
    const pay = (api: Api, order: { id: string; total: number }) =>
      api.post('/api/v1/payments', { order_id: order.id, amount: order.total, method: 'cash', capture: true })

    // The till names its open shift on the sale; a shift that is not open, or not the org's, is refused.
    const shift = (await cashier.post(`/api/v1/registers/${kiosk}/shifts/open`, { opening_float: 100 })).body.data
    const inShift = await cashier.post('/api/v1/orders', {
      location_id: shop,
      lines: [{ product_id: product, quantity: 1 }],
      shift_id: shift.id,
    })
    assert.equal(inShift.status, 201, JSON.stringify(inShift.body))
    assert.deepEqual([inShift.body.data.shift_id, inShift.body.data.register_id], [shift.id, kiosk])
    assert.equal((await pay(cashier, inShift.body.data)).status, 201)
    const unknownShift = await cashier.post('/api/v1/orders', {
      location_id: shop,
      lines: [{ product_id: product, quantity: 1 }],
      shift_id: 'shf_nope',
    })
    assert.deepEqual([unknownShift.status, unknownShift.body.errors?.[0]?.field], [422, 'shift_id'])
    const sold = inShift.body.data
    const refund = await cashier.post(`/api/v1/orders/${sold.id}/refund`, {
      amount: 4,
      approval: { user_id: manager.id, pin: '4826' },
    })
    assert.equal(refund.status, 201, JSON.stringify(refund.body))
    const voided = await sale(cashier)
    assert.equal((await cashier.patch(`/api/v1/orders/${voided.id}/status`, { status: 'voided' })).status, 200)
    assert.equal((await pay(owner, await sale(owner))).status, 201)

    const report = async (by: string) =>
      (await owner.get(`/api/v1/reports/staff?group_by=${by}&location_id=${shop}`)).body.data
    const byUser = await report('user')
    const figures = { orders: 1, sales: 10, discounts: 0, tips: 0 }
    assert.deepEqual(
      byUser.rows.find((r: { user_id: string }) => r.user_id === cashiers[0].id),
      { user_id: cashiers[0].id, ...figures, refunds: 1, refunded: 4, voids: 1, voided: 10 },
    )
    assert.deepEqual(
      byUser.rows.find((r: { user_id: string }) => r.user_id === merchant.userId),
      { user_id: merchant.userId, ...figures, refunds: 0, refunded: 0, voids: 0, voided: 0 },
    )
    assert.deepEqual(byUser.totals, {
      orders: 2,
      sales: 20,
      discounts: 0,
      tips: 0,
      refunds: 1,
      refunded: 4,
      voids: 1,
      voided: 10,
    })
    const byRegister = await report('register')
    assert.deepEqual(
      byRegister.rows.map((r: { register_id: string | null; orders: number; refunds: number }) => [
        r.register_id,
        r.orders,
        r.refunds,
      ]),
      // Biggest sales first, then by register (unknown first).
      [
        [null, 1, 0],
        [kiosk, 1, 1],
      ],
    )
    // `opentill rebuild-reports` computes the same staff figures again from the orders, refunds and voids.
    await app.services.reports.rebuild(systemContext(app.runtime.database, merchant.orgId, ['reports:read']))
    assert.deepEqual(await report('user'), byUser)
    assert.deepEqual(await report('register'), byRegister)
  })

  it('ends every session of a till when it is unpaired, and of a cashier let go', async () => {
    const till = await pairedTill()
    const session = await signIn(till.deviceToken, cashiers[1].id, '739146')
    const atTill = clientFor(app.api, session.body.data.accessToken)
    assert.equal((await atTill.get('/api/v1/orders')).status, 200)
    assert.equal((await manager.api.delete(`/api/v1/devices/${till.deviceId}`)).status, 204)
    assert.equal((await atTill.get('/api/v1/orders')).status, 401)
    assert.equal(
      (await anonymous().post('/api/v1/auth/refresh', { refreshToken: session.body.data.refreshToken })).status,
      401,
    )
    assert.equal((await signIn(till.deviceToken, cashiers[1].id, '739146')).status, 401)

    const next = await pairedTill()
    const cashier = clientFor(app.api, (await signIn(next.deviceToken, cashiers[1].id, '739146')).body.data.accessToken)
    assert.equal((await manager.api.patch(`/api/v1/users/${cashiers[1].id}`, { active: false })).status, 200)
    assert.equal((await cashier.get('/api/v1/orders')).status, 401)
    assert.equal((await signIn(next.deviceToken, cashiers[1].id, '739146')).status, 401)
    const staff = await anonymous().post('/api/v1/devices/staff', { device_token: next.deviceToken })
    assert.ok(!staff.body.data.some((s: { id: string }) => s.id === cashiers[1].id))
  })

  it('lets a manager clear a PIN (never set one), and only of staff', async () => {
    assert.equal((await manager.api.delete(`/api/v1/users/${merchant.userId}/pin`)).status, 403)
    assert.equal((await manager.api.delete(`/api/v1/users/${cashiers[0].id}/pin`)).status, 204)
    const user = await owner.get(`/api/v1/users/${cashiers[0].id}`)
    assert.equal(user.body.data.has_pin, false)
    assert.equal((await cashiers[0].api.delete(`/api/v1/users/${cashiers[0].id}/pin`)).status, 403)
  })
})
