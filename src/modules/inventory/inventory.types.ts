import type { RequestContext } from '../../platform/http/context.ts'

/** Why a level changed; the first group comes from orders, lay-bys and refunds, the rest from stock keeping. */
export const STOCK_REASONS = [
  'sale',
  'return',
  'refund_restock',
  'layby_reserve',
  'layby_release',
  'received',
  'damaged',
  'theft',
  'count',
  'correction',
  'transfer_out',
  'transfer_in',
] as const
type StockReason = (typeof STOCK_REASONS)[number]

/** The reasons a person may give on POST /inventory/adjust. */
export const ADJUST_REASONS = ['received', 'damaged', 'theft', 'count', 'return', 'correction'] as const
export type AdjustReason = (typeof ADJUST_REASONS)[number]

export interface StockChange {
  productId: string
  variantId?: string | null
  locationId: string
  /** Signed delta in whole units. */
  quantity: number
  reason: StockReason
  reference?: { type: string; id: string }
  /** The request field to name in errors, e.g. `lines.2`. */
  field?: string
  note?: string | null
  /** When it happened according to the client (offline tills); defaults to now. */
  occurredAt?: Date | null
  /**
   * What the catalog says the product draws down, as read by the caller inside the same transaction: a bundle's
   * components, or empty for a plain product. When every change carries it, inventory skips its own look-up
   * (orders price and take stock in one transaction, and the quote already read it).
   */
  components?: readonly { productId: string; variantId: string | null; quantity: number }[]
}

/** What inventory needs from the catalog, structurally, so either side can be faked in a test. */
export interface CatalogPort {
  products: { byIds(ctx: RequestContext, ids: readonly string[]): Promise<{ id: string; sku: string; name: string }[]> }
  bundles: {
    componentsOf(
      ctx: RequestContext,
      productIds: readonly string[],
    ): Promise<Map<string, { productId: string; variantId: string | null; quantity: number }[]>>
  }
  /** A 404 AppError when the variant is not the org's. */
  variants: { get(ctx: RequestContext, id: string): Promise<{ id: string; product_id: string; sku: string }> }
}

export interface LocationsPort {
  byIds(ctx: RequestContext, ids: readonly string[]): Promise<{ id: string; name: string }[]>
}

export interface OrgsPort {
  getOrg(ctx: RequestContext): Promise<{ allow_negative_stock: boolean }>
}
