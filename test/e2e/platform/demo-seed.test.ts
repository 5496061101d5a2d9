import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { seedDemoIfEmpty } from '../../../src/seed.ts'
import { clientFor, startTestApp, type TestApp } from '../../support/harness.ts'

describe('the demo org of a first start', () => {
  let app: TestApp
  before(async () => {
    app = await startTestApp()
  })
  after(() => app.close())

  it('is created once, on an empty database, ready to trade', async () => {
    const demo = await seedDemoIfEmpty(app.runtime, app.services)
    assert.ok(demo)
    assert.equal(await seedDemoIfEmpty(app.runtime, app.services), null)

    const login = await clientFor(app.api).post('/api/v1/auth/login', { email: demo.email, password: demo.password })
    assert.equal(login.status, 200)
    const api = clientFor(app.api, login.body.data.accessToken)
    const products = await api.get('/api/v1/products')
    assert.equal(products.body.data.length, 6)
    assert.ok(products.body.data.every((p: { category_id: string | null }) => p.category_id !== null))
    const categories = await api.get('/api/v1/categories')
    assert.deepEqual(
      categories.body.data.map((c: { name: string }) => c.name),
      ['Coffee', 'Bakery', 'Retail'],
    )
    const levels = await api.get('/api/v1/inventory/levels')
    assert.equal(levels.body.data.length, 6)
    assert.ok(levels.body.data.every((l: { on_hand: number }) => l.on_hand === 50))
  })
})
