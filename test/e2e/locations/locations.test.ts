import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { clientFor, createMerchant, type Merchant, startTestApp, type TestApp } from '../../support/harness.ts'

describe('locations', () => {
  let app: TestApp
  let merchant: Merchant
  let api: ReturnType<typeof clientFor>

  before(async () => {
    app = await startTestApp()
    merchant = await createMerchant(app)
    api = clientFor(app.api, merchant.token)
  })
  after(() => app.close())

  it('creates a location with address fields and a time zone, and reads it back', async () => {
    const created = await api.post('/api/v1/locations', {
      name: 'Queen Street',
      address_line1: '1 Queen St',
      city: 'Auckland',
      region: 'Auckland',
      postal_code: '1010',
      country: 'nz',
      timezone: 'Pacific/Auckland',
    })
    assert.equal(created.status, 201)
    const location = created.body.data
    assert.match(location.id, /^loc_/)
    assert.equal(location.country, 'NZ')
    assert.equal(location.timezone, 'Pacific/Auckland')
    assert.equal(location.is_active, true)
    assert.equal(location.version, 1)
    const read = await api.get(`/api/v1/locations/${location.id}`)
    assert.equal(read.status, 200)
    assert.deepEqual(read.body.data, location)
  })

  it('defaults the time zone to UTC and refuses an unknown one with a 422 naming timezone', async () => {
    const plain = await api.post('/api/v1/locations', { name: 'Warehouse' })
    assert.equal(plain.status, 201)
    assert.equal(plain.body.data.timezone, 'UTC')
    const bad = await api.post('/api/v1/locations', { name: 'Nowhere', timezone: 'Mars/Olympus' })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.errors[0].field, 'timezone')
  })

  it('refuses a missing name and unknown fields with 422s naming them', async () => {
    const missing = await api.post('/api/v1/locations', { city: 'Wellington' })
    assert.equal(missing.status, 422)
    assert.equal(missing.body.errors[0].field, 'name')
    const unknown = await api.post('/api/v1/locations', { name: 'X', colour: 'red' })
    assert.equal(unknown.status, 422)
    assert.equal(unknown.body.errors[0].field, 'colour')
    const blank = await api.post('/api/v1/locations', { name: '   ' })
    assert.equal(blank.status, 422)
    assert.equal(blank.body.errors[0].field, 'name')
  })

  it('updates fields with a version check and refuses a stale version with 409', async () => {
    const { body } = await api.post('/api/v1/locations', { name: 'Mall kiosk' })
    const id = body.data.id
    const patched = await api.patch(
      `/api/v1/locations/${id}`,
      { name: 'Mall kiosk 2', is_active: false },
      { 'if-match': '1' },
    )
    assert.equal(patched.status, 200)
    assert.equal(patched.body.data.name, 'Mall kiosk 2')
    assert.equal(patched.body.data.is_active, false)
    assert.equal(patched.body.data.version, 2)
    const stale = await api.patch(`/api/v1/locations/${id}`, { name: 'Lost update', version: 1 })
    assert.equal(stale.status, 409)
    assert.equal((await api.get(`/api/v1/locations/${id}`)).body.data.name, 'Mall kiosk 2')
    const badZone = await api.patch(`/api/v1/locations/${id}`, { timezone: 'Not/AZone' })
    assert.equal(badZone.status, 422)
    assert.equal(badZone.body.errors[0].field, 'timezone')
  })

  it('lists locations in pages and filters by is_active', async () => {
    for (let i = 0; i < 3; i++) await api.post('/api/v1/locations', { name: `Page ${i}` })
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page = await api.get(`/api/v1/locations?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      assert.equal(page.status, 200)
      assert.ok(page.body.data.length <= 2)
      seen.push(...page.body.data.map((l: { id: string }) => l.id))
      cursor = page.body.pagination.nextCursor
    } while (cursor)
    assert.equal(new Set(seen).size, seen.length)
    assert.ok(seen.length >= 5)
    const inactive = await api.get('/api/v1/locations?is_active=false')
    assert.ok(inactive.body.data.every((l: { is_active: boolean }) => !l.is_active))
    assert.ok(inactive.body.data.length >= 1)
    assert.equal((await api.get('/api/v1/locations?cursor=garbage')).status, 400)
  })

  it("hides one merchant's locations from another with 404s", async () => {
    const { body } = await api.post('/api/v1/locations', { name: 'Private' })
    const other = clientFor(app.api, (await createMerchant(app)).token)
    assert.equal((await other.get(`/api/v1/locations/${body.data.id}`)).status, 404)
    assert.equal((await other.patch(`/api/v1/locations/${body.data.id}`, { name: 'Hijacked' })).status, 404)
    assert.deepEqual((await other.get('/api/v1/locations')).body.data, [])
  })

  it('answers assertExists with a 422 naming the field for an unknown or foreign location', async () => {
    const { body } = await api.post('/api/v1/locations', { name: 'Known' })
    const { systemContext } = await import('../../../src/platform/http/system-context.ts')
    const ctx = systemContext(app.runtime.database, merchant.orgId, [])
    await app.services.locations.assertExists(ctx, body.data.id, 'location_id')
    await assert.rejects(
      app.services.locations.assertExists(ctx, 'loc_missing', 'lines.0.location_id'),
      (error: { status: number; errors: { field: string }[] }) => {
        assert.equal(error.status, 422)
        assert.equal(error.errors[0].field, 'lines.0.location_id')
        return true
      },
    )
    const foreign = await createMerchant(app)
    await assert.rejects(
      app.services.locations.assertExists(
        systemContext(app.runtime.database, foreign.orgId, []),
        body.data.id,
        'location_id',
      ),
    )
  })
})
