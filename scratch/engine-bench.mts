import { applyCampaigns, type CampaignDef } from '../src/modules/campaigns/campaigns.rules.ts'
import { localClock } from '../src/platform/time/local-clock.ts'
const nc = { productIds: null, categoryIds: null, minSpend: null, minQuantity: null, tiers: null, tags: null, locationIds: null, days: null, hours: null }
const ids = Array.from({ length: 60 }, (_, i) => `p${i}`)
const defs: CampaignDef[] = Array.from({ length: 20 }, (_, i) => ({
  id: `c${i}`, name: `C ${i}`, status: 'active', priority: i % 3, stacking: 'stackable', stackingClass: 'default', startsAt: null, endsAt: null,
  conditions: { ...nc, productIds: new Set(ids.slice(i, i + 6)), days: i === 18 ? new Set([6, 7]) : null },
  rules: [{ id: 'r', type: 'percentage', percentE4: 50000, target: 'line' }], requiresVoucher: false, usageLimit: null, usageCount: 0, perCustomerLimit: null,
}))
const lines = [{ productId: 'p3', categoryId: null, unitPrice: 1000n, quantity: 1 }, { productId: 'p10', categoryId: null, unitPrice: 500n, quantity: 2 }, { productId: 'p40', categoryId: null, unitPrice: 700n, quantity: 3 }]
const N = 20000
let t = performance.now()
for (let i = 0; i < N; i++) applyCampaigns(defs, { currency: 'USD', lines, locationId: 'l', at: new Date(), local: { isoDay: 3, minutes: 600 }, customer: null, vouchers: new Map() })
console.log('engine µs', ((performance.now() - t) * 1000) / N)
t = performance.now()
for (let i = 0; i < N; i++) localClock(new Date(), 'Europe/Berlin')
console.log('localClock µs', ((performance.now() - t) * 1000) / N)
