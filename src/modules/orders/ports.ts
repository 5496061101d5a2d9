import type { RequestContext } from '../../platform/http/context.ts'
import type { ApprovalAction } from '../auth/index.ts'
import type { CampaignsService } from '../campaigns/index.ts'
import type { CatalogService } from '../catalog/index.ts'
import type { CustomersService } from '../customers/index.ts'
import type { InventoryService } from '../inventory/index.ts'
import type { LocationsService } from '../locations/index.ts'
import type { OrgsService } from '../orgs/index.ts'
import type { TaxService } from '../tax/index.ts'

/**
 * What orders need from other domains, each the provider's own type or a slice of its service, so no shape is
 * copied here. services.ts wires the real services in.
 */

/** Catalog: what order lines cost now, with a bundle's components. */
export type PricingPort = Pick<CatalogService['pricing'], 'quote'>

export type { QuotedLine } from '../catalog/index.ts'

/** Inventory: stock moves, and a sale's stock as one statement committed right behind (prepareSale). */
export type InventoryPort = Pick<InventoryService, 'applyChanges' | 'prepareSale' | 'isSaleRefusal'>

export type LocationsPort = Pick<LocationsService, 'assertExists'>

export type CustomersPort = Pick<CustomersService, 'assertExists'>

export type TaxPort = Pick<TaxService, 'rateTable'>

/** The org settings pricing depends on. */
export type OrgSettingsPort = Pick<OrgsService, 'pricingSettings'>

/** Campaigns: prepared with the other pricing reads, claimed in the order's transaction. */
export type CampaignsPort = Pick<CampaignsService, 'prepare' | 'claim'>

/** Approvals at the till: a manager's PIN on the same till, checked against the store's rules. */
export interface ApprovalsPort {
  /** The approver's id, from a manager's PIN typed on the till of the caller's session. */
  approverAtTill(ctx: RequestContext, approval: { user_id: string; pin: string }): Promise<string>
  /** Refuses what staff may not do alone unless approved. */
  assertApproved(ctx: RequestContext, action: ApprovalAction, approverId: string | null): Promise<void>
}
