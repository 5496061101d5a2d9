import { startTestApp, createMerchant, clientFor } from '../test/support/harness.ts'
import pg from 'pg'
const app = await startTestApp()
const m = await createMerchant(app, { plan: 'enterprise' })
const owner = new pg.Client({ connectionString: app.runtime.ownerUrl }); await owner.connect()
await owner.query("UPDATE orgs SET rate_limit_per_minute = 10000000, rate_limit_burst = 1000000 WHERE id = $1", [m.orgId]); await owner.end()
const s = clientFor(app.api, m.token)
const loc = (await s.post('/api/v1/locations', { name: 'L' })).body.data.id
const ids: string[] = []
for (let i = 0; i < 60; i++) { const p = (await s.post('/api/v1/products', { name: `P${i}`, sku: `s${i}`, base_price: 1 + i / 4 })).body.data.id; ids.push(p); await s.post('/api/v1/inventory/adjust', { product_id: p, location_id: loc, quantity: 100000, reason: 'received' }) }
const cust = (await s.post('/api/v1/customers', { first_name: 'B', email: 'b@example.test', tags: ['vip'] })).body.data.id
const some = (n: number, from: number) => ids.slice(from, from + n)
const defs: object[] = [
  ...Array.from({ length: 5 }, (_, i) => ({ name: `Line ${i}`, rules: [{ type: 'percentage', percent: 5 + i, target: 'line' }], conditions: { product_ids: some(6, i * 6) } })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `Category ${i}`, rules: [{ type: 'percentage', percent: 3 }], conditions: { category_ids: [`cat_${i}`] } })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `Spend ${i}`, rules: [{ type: 'fixed_amount', amount: 1 + i }], conditions: { min_spend: 20 + 20 * i }, stacking_class: 'spend', priority: -1 })),
  ...Array.from({ length: 3 }, (_, i) => ({ name: `B2G1 ${i}`, rules: [{ type: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1 }], conditions: { product_ids: some(10, 30 + i * 10) } })),
  ...Array.from({ length: 2 }, (_, i) => ({ name: `3 for 10 ${i}`, rules: [{ type: 'multi_buy', quantity: 3, price: 10 }], conditions: { product_ids: some(5, i * 5) } })),
  { name: 'VIP', rules: [{ type: 'percentage', percent: 10 }], conditions: { customer_tags: ['vip'] }, priority: 5 },
  { name: 'Free item', rules: [{ type: 'free_item', product_id: ids[0] }], conditions: { min_spend: 50 } },
  { name: 'Weekend', rules: [{ type: 'percentage', percent: 15 }], conditions: { days_of_week: [6, 7] }, stacking: 'exclusive', priority: 10 },
  { name: 'Happy hour', rules: [{ type: 'percentage', percent: 20 }], conditions: { hours: { from: '17:00', to: '19:00' } }, stacking: 'exclusive', priority: 9 },
]
const active = process.argv[2] === 'on'
for (const d of defs) await s.post('/api/v1/campaigns', { status: active ? 'scheduled' : 'draft', ...d })
const body = () => { const picked = new Set<string>(); while (picked.size < 3) picked.add(ids[Math.floor(Math.random() * ids.length)]); return { location_id: loc, customer_id: cust, lines: [...picked].map((product_id, i) => ({ product_id, quantity: i + 1 })) } }
for (let i = 0; i < 1000; i++) await s.post('/api/v1/orders/calculate', body())
const N = 4000
const cpu0 = process.cpuUsage()
const conc = 20
let done = 0
await Promise.all(Array.from({ length: conc }, async () => { while (done < N) { done++; await s.post('/api/v1/orders/calculate', body()) } }))
const cpu = process.cpuUsage(cpu0)
const sample = (await s.post('/api/v1/orders/calculate', body()))
if (process.env.SHOW) console.log(JSON.stringify(sample.body));console.log(active ? 'on' : 'off', 'cpu µs/req', Math.round((cpu.user + cpu.system) / N), 'bytes', sample.raw.body.length)
await app.close()
