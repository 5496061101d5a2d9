import type { RequestContext } from '../../platform/http/context.ts'

/** One unit of a bundle draws down `quantity` of this item. */
export interface BundleComponent {
  productId: string
  variantId: string | null
  quantity: number
}

/** What inventory needs from the catalog, structurally, so either side can be faked in a test. */
export interface CatalogPort {
  products: { byIds(ctx: RequestContext, ids: readonly string[]): Promise<{ id: string; sku: string; name: string }[]> }
  bundles: { componentsOf(ctx: RequestContext, productIds: readonly string[]): Promise<Map<string, BundleComponent[]>> }
  /** A 404 AppError when the variant is not the org's. */
  variants: { get(ctx: RequestContext, id: string): Promise<{ id: string; product_id: string; sku: string }> }
}

export interface LocationsPort {
  byIds(ctx: RequestContext, ids: readonly string[]): Promise<{ id: string; name: string }[]>
}

export interface OrgsPort {
  getOrg(ctx: RequestContext): Promise<{ allow_negative_stock: boolean }>
}
