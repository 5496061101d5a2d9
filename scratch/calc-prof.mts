import { startTestApp } from '../test/support/harness.ts'
import { openShop } from '../test/e2e/orders.fixtures.ts'
const app = await startTestApp()
const s = await openShop(app)
const ids: string[] = []
for (let i = 0; i < 60; i++) ids.push(await s.product(1 + i, { stock: 1000 }))
const cust = (await s.api.post('/api/v1/customers', { first_name: 'B', email: 'b@example.test', tags: ['vip'] })).body.data.id
const active = process.argv[2] === 'on'
for (let i = 0; i < 20; i++) {
  const r = await s.api.post('/api/v1/campaigns', { status: active ? 'scheduled' : 'draft', name: `C${i}`, rules: [{ type: 'percentage', percent: 5, target: 'line' }], conditions: i === 19 ? { customer_tags: ['vip'] } : { product_ids: ids.slice(i * 3, i * 3 + 6) } })
  if (r.status !== 201) throw new Error(JSON.stringify(r.body))
}
const body = () => ({ location_id: s.locationId, customer_id: cust, lines: [0, 1, 2].map((k) => ({ product_id: ids[Math.floor(Math.random() * 60)], quantity: k + 1 })) })
for (let i = 0; i < 2000; i++) await s.api.post('/api/v1/orders/calculate', body())
const t = performance.now()
const N = 5000
const cpu0 = process.cpuUsage()
for (let i = 0; i < N; i++) await s.api.post('/api/v1/orders/calculate', body())
const cpu = process.cpuUsage(cpu0)
console.log(active ? 'on' : 'off', 'wall µs/req', ((performance.now() - t) * 1000) / N, 'cpu µs/req', (cpu.user + cpu.system) / N)
await app.close()
