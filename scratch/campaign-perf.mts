import scenario from '../bench/scenarios/campaigns.ts'
import { startTestApp, createMerchant } from '../test/support/harness.ts'
const app = await startTestApp()
const m = await createMerchant(app, { plan: 'enterprise' })
import pg from 'pg'
const owner = new pg.Client({ connectionString: app.runtime.ownerUrl }); await owner.connect()
await owner.query("UPDATE orgs SET rate_limit_per_minute = 10000000, rate_limit_burst = 1000000 WHERE id = $1", [m.orgId]); await owner.end()
const addr = await app.api.listen({ port: 0, host: '127.0.0.1' })
const h = { authorization: `Bearer ${m.token}`, 'content-type': 'application/json' }
for (let i = 0; i < 60; i++) await fetch(`${addr}/api/v1/products`, { method: 'POST', headers: h, body: JSON.stringify({ name: `P${i}`, sku: `s${i}`, base_price: 1 + i / 4 }) })
const rows = await scenario({ engine: 'server', apiUrl: addr, bareUrl: addr, token: m.token, orgId: m.orgId, ownerUrl: app.runtime.ownerUrl, durationS: 4, rounds: 1 })
console.log(JSON.stringify(rows.map((r) => [r.scenario, Math.round(r.reqPerSec), r.note ?? ''])))
await app.close()
