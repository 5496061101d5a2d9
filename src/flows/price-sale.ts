import type { CampaignsService } from '../modules/campaigns/index.ts'
import type { CatalogService } from '../modules/catalog/index.ts'
import type { LoyaltyService } from '../modules/loyalty/index.ts'
import { type PricedOrder, type PricingInput, presentedVouchers, priceFrom } from '../modules/orders/index.ts'
import type { OrgsService } from '../modules/orgs/index.ts'
import type { TaxService } from '../modules/tax/index.ts'
import type { RequestContext } from '../platform/http/context.ts'

/**
 * Pricing a sale (an order, its calculation, a lay-by): the store's pricing settings, the catalog's quote of the
 * lines, the tax rates and the campaigns that may apply (with the customer's loyalty tier, when a campaign asks for
 * one) are read at once (on a pipelined connection, one round
 * trip), then orders prices the sale from them.
 */
export function createPriceSaleFlow(deps: {
  orgs: Pick<OrgsService, 'pricingSettings'>
  catalog: { pricing: Pick<CatalogService['pricing'], 'quote'> }
  tax: Pick<TaxService, 'rateTable'>
  campaigns: Pick<CampaignsService, 'prepare'>
  loyalty: Pick<LoyaltyService, 'tierOf'>
}) {
  return async function priceSale(ctx: RequestContext, input: PricingInput): Promise<PricedOrder> {
    const vouchers = presentedVouchers(input)
    const at = new Date()
    const [org, quoted, taxOf, campaignsFor] = await Promise.all([
      deps.orgs.pricingSettings(ctx),
      deps.catalog.pricing.quote(
        ctx,
        input.lines.map((l) => ({
          productId: l.product_id,
          variantId: l.variant_id ?? null,
          quantity: l.quantity,
          modifierOptionIds: l.modifier_option_ids,
        })),
        { locationId: input.location_id, at },
      ),
      deps.tax.rateTable(ctx),
      deps.campaigns.prepare(ctx, {
        locationId: input.location_id,
        customerId: input.customer_id ?? null,
        voucherCodes: vouchers.codes,
        voucherFields: vouchers.fields,
        at,
        tierOf: () => (input.customer_id ? deps.loyalty.tierOf(ctx, input.customer_id) : Promise.resolve(null)),
      }),
    ])
    return priceFrom({ org, quoted, taxOf, campaignsFor }, input)
  }
}

export type PriceSale = ReturnType<typeof createPriceSaleFlow>
