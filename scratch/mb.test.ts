import { after, before, it } from 'node:test'
import { startTestApp, type TestApp } from '../test/support/harness.ts'
import { openShop } from '../test/e2e/orders.fixtures.ts'
let app: TestApp
before(async () => { app = await startTestApp() })
after(() => app.close())
it('x', async () => {
  const s = await openShop(app)
  const a = await s.product(3.33, { stock: 50 })
  const r = await s.api.post('/api/v1/campaigns', { status: 'scheduled', name: '3 for 20', rules: [{ type: 'multi_buy', quantity: 3, price: 20 }] })
  console.log(JSON.stringify(r.body))
  const c = await s.api.post('/api/v1/orders/calculate', { location_id: s.locationId, lines: [{ product_id: a, quantity: 7 }] })
  console.log(JSON.stringify(c.body.data.campaigns))
})
