import type { RequestContext } from '../../platform/http/context.ts'
import type { ApprovalAction } from '../auth/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { TaxService } from '../tax/index.ts'

/**
 * What orders need from the domains below them, and the reads pricing is computed from, each the provider's own
 * type or a slice of its service, so no shape is copied here.
 */

export type { QuotedLine } from '../catalog/index.ts'

/** Inventory: the stock a void or a refund puts back. */
export type InventoryPort = Pick<InventoryService, 'applyChanges'>

export type LocationsPort = Pick<LocationsService, 'assertExists'>

export type CustomersPort = Pick<CustomersService, 'assertExists'>

export type TaxPort = Pick<TaxService, 'rateTable'>

/** The org settings pricing depends on (read by the price-sale flow). */
export type OrgSettingsPort = Pick<OrgsService, 'pricingSettings'>

/** Campaigns: what may apply to a cart, read by the price-sale flow with the other pricing reads. */
export type CampaignsPort = Pick<CampaignsService, 'prepare'>

/** Approvals at the till: a manager's PIN on the same till, checked against the store's rules. */
export interface ApprovalsPort {
  /** The approver's id, from a manager's PIN typed on the till of the caller's session. */
  approverAtTill(ctx: RequestContext, approval: { user_id: string; pin: string }): Promise<string>
  /** Refuses what staff may not do alone unless approved. */
  assertApproved(ctx: RequestContext, action: ApprovalAction, approverId: string | null): Promise<void>
}
