import { randomBytes } from 'node:crypto'
import { MERCHANT_SCOPES } from './modules/auth/index.ts'
import { systemContext } from './platform/http/system-context.ts'
import type { Runtime } from './platform/runtime.ts'
import type { Services } from './services.ts'

interface DemoLogin {
  orgId: string
  email: string
  password: string
}

const sampleCatalog = [
  {
    category: 'Coffee',
    products: [
      { name: 'Flat White', sku: 'COF-FW', base_price: 4.5, barcodes: ['9400000000011'], tags: ['coffee', 'hot'] },
      { name: 'Long Black', sku: 'COF-LB', base_price: 4, tags: ['coffee', 'hot'] },
      { name: 'Iced Latte', sku: 'COF-IL', base_price: 5.5, tags: ['coffee', 'cold'] },
    ],
  },
  {
    category: 'Bakery',
    products: [
      { name: 'Croissant', sku: 'BAK-CR', base_price: 3.8, barcodes: ['9400000000028'], tags: ['bakery'] },
      { name: 'Blueberry Muffin', sku: 'BAK-BM', base_price: 4.2, tags: ['bakery'] },
    ],
  },
  {
    category: 'Retail',
    products: [
      {
        name: 'House Blend Beans 250g',
        sku: 'RET-HB250',
        base_price: 16.9,
        barcodes: ['9400000000035'],
        tags: ['retail'],
      },
    ],
  },
]

/** Opening stock of each sample product at the demo location. */
const OPENING_STOCK = 50

/**
 * On a database without any org, creates a demo org ready to trade (categories, products, a location with
 * opening stock) and returns its owner's login.
 */
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
  const location = await services.locations.create(ctx, { name: 'Main Street' })
  for (const [sortOrder, group] of sampleCatalog.entries()) {
    const category = await services.catalog.categories.create(ctx, { name: group.category, sort_order: sortOrder })
    for (const sample of group.products) {
      const product = await services.catalog.products.create(ctx, { ...sample, category_id: category.id })
      await services.inventory.adjust(ctx, {
        product_id: product.id,
        location_id: location.id,
        quantity: OPENING_STOCK,
        reason: 'received',
        note: 'opening stock',
      })
    }
  }
  return { orgId: org.id, email, password }
}
