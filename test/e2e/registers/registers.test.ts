import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { systemContext } from '../../../src/platform/http/system-context.ts'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('registers and shifts', () => {
  let app: TestApp
  let merchant: Merchant
  let api: ReturnType<typeof clientFor>
  let locationId: string

  const newRegister = async (name = 'Till') => {
    const res = await api.post('/api/v1/registers', { location_id: locationId, name })
    assert.equal(res.status, 201)
    return res.body.data.id as string
  }
  const openShift = async (registerId: string, opening_float = 100) => {
    const res = await api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float })
    assert.equal(res.status, 201, JSON.stringify(res.body))
    return res.body.data.id as string
  }
  const ctx = () => systemContext(app.runtime.database, merchant.orgId, [])

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    api = clientFor(app.api, merchant.token)
    locationId = (await api.post('/api/v1/locations', { name: 'Front' })).body.data.id
  })
  after(() => app.close())

  it('creates a register at a location and reads it back, refusing an unknown location with a 422', async () => {
    const created = await api.post('/api/v1/registers', { location_id: locationId, name: 'Till 1' })
    assert.equal(created.status, 201)
    assert.match(created.body.data.id, /^reg_/)
    assert.equal(created.body.data.open_shift_id, null)
    assert.deepEqual((await api.get(`/api/v1/registers/${created.body.data.id}`)).body.data, created.body.data)
    const unknown = await api.post('/api/v1/registers', { location_id: 'loc_missing', name: 'Ghost' })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'location_id')
    const missing = await api.post('/api/v1/registers', { location_id: locationId })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'name')
  })

  it('computes expected cash, counted and variance exactly to the cent at close', async () => {
    const registerId = await newRegister()
    const shiftId = await openShift(registerId, 100)
    assert.equal((await api.get(`/api/v1/registers/${registerId}`)).body.data.open_shift_id, shiftId)
    assert.equal(
      (await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'in', amount: 20.05, reason: 'float top-up' })).status,
      201,
    )
    const out = await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'out', amount: 15.1, reason: 'bank drop' })
    assert.equal(out.status, 201)
    assert.deepEqual([out.body.data.kind, out.body.data.amount, out.body.data.reason], ['out', 15.1, 'bank drop'])
    await ctx().db.tx(async () => {
      const c = ctx()
      await app.services.registers.recordCashMovement(c, {
        shiftId,
        kind: 'sale',
        amount: 3333n,
        reference: { type: 'order', id: 'ord_a' },
      })
      await app.services.registers.recordCashMovement(c, {
        shiftId,
        kind: 'sale',
        amount: 1n,
        reference: { type: 'order', id: 'ord_b' },
      })
      await app.services.registers.recordCashMovement(c, {
        shiftId,
        kind: 'refund',
        amount: 333n,
        reference: { type: 'refund', id: 'ref_a' },
      })
    })
    const running = (await api.get(`/api/v1/shifts/${shiftId}`)).body.data
    assert.deepEqual(
      [
        running.status,
        running.opening_float,
        running.cash_in,
        running.cash_out,
        running.cash_sales,
        running.cash_refunds,
        running.expected_amount,
      ],
      ['open', 100, 20.05, 15.1, 33.34, 3.33, 134.96],
    )
    const closed = await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 134.9 })
    assert.equal(closed.status, 200)
    const s = closed.body.data
    assert.deepEqual([s.status, s.expected_amount, s.counted_amount, s.variance], ['closed', 134.96, 134.9, -0.06])
    assert.equal(s.closed_by, merchant.userId)
    assert.ok(s.closed_at)
    assert.equal((await api.get(`/api/v1/registers/${registerId}`)).body.data.open_shift_id, null)

    const ledger = await api.get(`/api/v1/shifts/${shiftId}/cash`)
    assert.deepEqual(
      ledger.body.data.map((m: { kind: string; amount: number; reference: { id: string } | null }) => [
        m.kind,
        m.amount,
        m.reference?.id ?? null,
      ]),
      [
        ['in', 20.05, null],
        ['out', 15.1, null],
        ['sale', 33.33, 'ord_a'],
        ['sale', 0.01, 'ord_b'],
        ['refund', 3.33, 'ref_a'],
      ],
    )
  })

  it('allows one open shift per register, also when two opens race', async () => {
    const registerId = await newRegister()
    const results = await Promise.all([
      api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 50 }),
      api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 50 }),
    ])
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 409])
    const again = await api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 10 })
    assert.equal(again.status, 409)
    const open = results.find((r) => r.status === 201)!.body.data.id
    await api.post(`/api/v1/shifts/${open}/close`, { counted_amount: 50 })
    assert.equal((await api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 10 })).status, 201)
  })

  it('refuses cash and a second close on a closed shift with 409, and unknown shifts with 404', async () => {
    const shiftId = await openShift(await newRegister(), 0)
    const zeroVariance = await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 0 })
    assert.deepEqual([zeroVariance.body.data.expected_amount, zeroVariance.body.data.variance], [0, 0])
    assert.equal(
      (await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'in', amount: 1, reason: 'late' })).status,
      409,
    )
    assert.equal((await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 0 })).status, 409)
    await assert.rejects(
      ctx().db.tx(() =>
        app.services.registers.recordCashMovement(ctx(), {
          shiftId,
          kind: 'sale',
          amount: 100n,
          reference: { type: 'order', id: 'o' },
        }),
      ),
      (error: { status: number }) => error.status === 409,
    )
    await assert.rejects(
      app.services.registers.recordCashMovement(ctx(), {
        shiftId: 'shf_missing',
        kind: 'sale',
        amount: 100n,
        reference: { type: 'order', id: 'o' },
      }),
      (error: { status: number }) => error.status === 404,
    )
    assert.equal(
      (await api.post('/api/v1/shifts/shf_missing/cash', { kind: 'in', amount: 1, reason: 'x' })).status,
      404,
    )
    assert.equal((await api.post('/api/v1/shifts/shf_missing/close', { counted_amount: 1 })).status, 404)
    assert.equal((await api.get('/api/v1/shifts/shf_missing')).status, 404)
    assert.equal((await api.post('/api/v1/registers/reg_missing/shifts/open', { opening_float: 1 })).status, 404)
  })

  it('validates amounts with 422s naming the field', async () => {
    const registerId = await newRegister()
    const negative = await api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: -1 })
    assert.equal(negative.status, 422)
    assert.equal(negative.body.errors[0].field, 'opening_float')
    const precise = await api.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 1.001 })
    assert.equal(precise.status, 422)
    assert.equal(precise.body.errors[0].field, 'opening_float')
    const shiftId = await openShift(registerId, 10)
    const zero = await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'in', amount: 0, reason: 'x' })
    assert.equal(zero.status, 422)
    assert.equal(zero.body.errors[0].field, 'amount')
    const kind = await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'sale', amount: 1, reason: 'x' })
    assert.equal(kind.status, 422)
    assert.equal(kind.body.errors[0].field, 'kind')
    const noReason = await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'out', amount: 1 })
    assert.equal(noReason.status, 422)
    assert.equal(noReason.body.errors[0].field, 'reason')
    const counted = await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 'lots' })
    assert.equal(counted.status, 422)
    assert.equal((await api.get(`/api/v1/shifts/${shiftId}`)).body.data.status, 'open')
  })

  it('lists registers and shifts in pages with register and status filters', async () => {
    const registerId = await newRegister('Paged')
    for (let i = 0; i < 3; i++) {
      const shiftId = await openShift(registerId, 5)
      await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 5 })
    }
    await openShift(registerId, 5)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page = await api.get(`/api/v1/shifts?register_id=${registerId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      assert.equal(page.status, 200)
      seen.push(...page.body.data.map((s: { id: string }) => s.id))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.equal(seen.length, 4)
    const newest: string[] = []
    do {
      const page = await api.get(
        `/api/v1/shifts?register_id=${registerId}&order=newest&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      )
      newest.push(...page.body.data.map((s: { id: string }) => s.id))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.deepEqual(newest, [...seen].reverse())
    const open = await api.get(`/api/v1/shifts?register_id=${registerId}&status=open`)
    assert.equal(open.body.data.length, 1)
    assert.equal((await api.get(`/api/v1/shifts?register_id=${registerId}&status=closed`)).body.data.length, 3)
    assert.equal((await api.get('/api/v1/shifts?status=paused')).status, 400)
    const registers = await api.get(`/api/v1/registers?location_id=${locationId}&limit=1`)
    assert.equal(registers.body.data.length, 1)
    assert.equal(registers.body.pagination.hasMore, true)
  })

  it('hides registers and shifts from another merchant with 404s', async () => {
    const registerId = await newRegister()
    const shiftId = await openShift(registerId, 10)
    const stranger = clientFor(app.api, (await createMerchant(app)).token)
    assert.equal((await stranger.get(`/api/v1/registers/${registerId}`)).status, 404)
    assert.equal((await stranger.post(`/api/v1/registers/${registerId}/shifts/open`, { opening_float: 1 })).status, 404)
    assert.equal((await stranger.get(`/api/v1/shifts/${shiftId}`)).status, 404)
    assert.equal((await stranger.get(`/api/v1/shifts/${shiftId}/cash`)).status, 404)
    assert.equal(
      (await stranger.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'out', amount: 10, reason: 'steal' })).status,
      404,
    )
    assert.equal((await stranger.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 0 })).status, 404)
    assert.deepEqual((await stranger.get('/api/v1/shifts')).body.data, [])
    const intoMyLocation = await stranger.post('/api/v1/registers', { location_id: locationId, name: 'Sneaky' })
    assert.equal(intoMyLocation.status, 422)
    assert.equal((await api.get(`/api/v1/shifts/${shiftId}`)).body.data.status, 'open')
  })

  it('emits shift events in the outbox', async () => {
    const shiftId = await openShift(await newRegister(), 1)
    await api.post(`/api/v1/shifts/${shiftId}/cash`, { kind: 'in', amount: 2, reason: 'coins' })
    await api.post(`/api/v1/shifts/${shiftId}/close`, { counted_amount: 3 })
    const { rows } = await app.runtime.database.transaction(merchant.orgId, (q) =>
      q.query<{ type: string }>(
        `SELECT type FROM events WHERE org_id = $1 AND (data->>'id' = $2 OR data->'shift'->>'id' = $2) ORDER BY id`,
        [merchant.orgId, shiftId],
      ),
    )
    assert.deepEqual(
      rows.map((r) => r.type),
      ['shift.opened', 'shift.cash_moved', 'shift.closed'],
    )
  })
})
