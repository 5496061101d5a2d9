import type { RequestContext } from '../../platform/http/context.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { LoyaltyService } from '../loyalty/index.ts'

/**
 * What orders need from other domains, structurally, so each side can be built and tested on its own.
 * services.ts wires the real services in.
 */

interface QuoteLineInput {
  productId: string
  variantId?: string | null
  quantity: number
  modifierOptionIds?: string[]
}

export interface QuotedLine {
  productId: string
  variantId: string | null
  quantity: number
  name: string
  sku: string
  categoryId: string | null
  basePrice: bigint
  unitPrice: bigint
  modifiers: { id: string; groupId: string; name: string; priceAdjustment: bigint }[]
  /** Only on a bundle: its components. The quote reads them, so absence means a plain product. */
  components?: { productId: string; variantId: string | null; quantity: number }[]
}

export interface PricingPort {
  quote(
    ctx: RequestContext,
    lines: readonly QuoteLineInput[],
    at: { locationId?: string | null; at?: Date },
  ): Promise<QuotedLine[]>
}

interface StockChange {
  productId: string
  variantId?: string | null
  locationId: string
  quantity: number
  reason: 'sale' | 'return' | 'refund_restock' | 'layby_reserve' | 'layby_release'
  reference?: { type: string; id: string }
  field?: string
  components?: { productId: string; variantId: string | null; quantity: number }[]
}

export interface InventoryPort {
  applyChanges(ctx: RequestContext, changes: StockChange[]): Promise<unknown>
  /** A sale's stock as one statement to commit right behind; null when it needs the full path. */
  prepareSale(ctx: RequestContext, changes: StockChange[]): (() => Promise<void>) | null
  /** Whether an error is the refusal of prepareSale's statement (retry with applyChanges). */
  isSaleRefusal(error: unknown): boolean
}

export interface LocationsPort {
  assertExists(ctx: RequestContext, id: string, field: string): Promise<void>
}

export interface CustomersPort {
  assertExists(ctx: RequestContext, id: string, field: string): Promise<void>
}

export interface TaxPort {
  rateTable(
    ctx: RequestContext,
  ): Promise<(items: readonly { productId: string; categoryId: string | null }[]) => number[]>
}

/** The org settings pricing depends on. */
export interface OrgSettingsPort {
  pricingSettings(ctx: RequestContext): Promise<{ currency: string; prices_include_tax: boolean }>
}

/** One payment's share of a refund. */
export interface RefundPart {
  paymentId: string
  amount: bigint
}

/**
 * The payments side of an order: reading what was paid, and refunding in three steps so the processor is
 * called outside any transaction: reserve (in the order's transaction), execute (outside), settle or release.
 */
export interface OrderPaymentsPort {
  listForOrder(ctx: RequestContext, orderId: string): Promise<object[]>
  reserveRefund(ctx: RequestContext, orderId: string, refundId: string, amount: bigint): Promise<RefundPart[]>
  executeRefund(
    ctx: RequestContext,
    refundId: string,
    parts: RefundPart[],
  ): Promise<{ ok: true; refs: Map<string, string | null> } | { ok: false; reason: string }>
  settleRefund(
    ctx: RequestContext,
    refundId: string,
    parts: RefundPart[],
    shiftId: string | null,
    refs: Map<string, string | null>,
  ): Promise<void>
  releaseRefund(ctx: RequestContext, refundId: string, parts: RefundPart[]): Promise<void>
  /** Voids the order's uncaptured intents (before the order itself is voided). */
  voidOpenIntents(ctx: RequestContext, orderId: string): Promise<void>
}

/** Campaigns: prepared with the other pricing reads, claimed in the order's transaction, released by a void. */
export type CampaignsPort = Pick<CampaignsService, 'prepare' | 'claim' | 'release'>

/** Loyalty: points accrue in the completing order's transaction and a refund takes its share back. */
export type LoyaltyPort = Pick<LoyaltyService, 'accrueForOrder' | 'reverseForRefund'>
