import { randomBytes } from 'node:crypto'
import { MERCHANT_SCOPES } from './modules/auth/index.ts'
import { systemContext } from './platform/http/system-context.ts'
import type { Runtime } from './platform/runtime.ts'
import type { Services } from './services.ts'

export interface DemoLogin {
  orgId: string
  email: string
  password: string
}

const sampleProducts = [
  { name: 'Flat White', sku: 'COF-FW', base_price: 4.5, barcodes: ['9400000000011'], tags: ['coffee', 'hot'] },
  { name: 'Long Black', sku: 'COF-LB', base_price: 4, tags: ['coffee', 'hot'] },
  { name: 'Iced Latte', sku: 'COF-IL', base_price: 5.5, tags: ['coffee', 'cold'] },
  { name: 'Croissant', sku: 'BAK-CR', base_price: 3.8, barcodes: ['9400000000028'], tags: ['bakery'] },
  { name: 'Blueberry Muffin', sku: 'BAK-BM', base_price: 4.2, tags: ['bakery'] },
  { name: 'House Blend Beans 250g', sku: 'RET-HB250', base_price: 16.9, barcodes: ['9400000000035'], tags: ['retail'] },
]

/** On a database without any org, creates a demo org with a small catalog and returns its owner's login. */
export async function seedDemoIfEmpty(runtime: Runtime, services: Services): Promise<DemoLogin | null> {
  const hasOrgs = await runtime.database.unscoped(async (q) => {
    const result = await q.query<{ has: boolean }>('SELECT platform_has_orgs() AS has')
    return result.rows[0].has
  })
  if (hasOrgs) return null
  const email = 'owner@demo.opentill.dev'
  const password = randomBytes(9).toString('base64url')
  const { org } = await services.orgs.createOrg({
    name: 'Demo Café',
    email,
    password,
    ownerName: 'Demo Owner',
    currency: 'USD',
  })
  const ctx = systemContext(runtime.database, org.id, MERCHANT_SCOPES)
  for (const product of sampleProducts) await services.catalog.products.create(ctx, product)
  return { orgId: org.id, email, password }
}
