import { createCompleteSaleFlow, createFlows, createTakePaymentFlow } from './flows/index.ts'
import { createAuditService } from './modules/audit/index.ts'
import {
  createAuthService,
  createDevicesService,
  createInvitationsService,
  createPasswordsService,
  createSessionEnding,
  createUsersService,
} from './modules/auth/index.ts'
import { createAutomationsService } from './modules/automations/index.ts'
import { createCampaignsService } from './modules/campaigns/index.ts'
import { createCatalogService } from './modules/catalog/index.ts'
import { createCustomersService } from './modules/customers/index.ts'
import { createEventsService } from './modules/events/index.ts'
import { createGiftCardsService } from './modules/gift-cards/index.ts'
import { createIntegrationsService } from './modules/integrations/index.ts'
import { createInventoryService } from './modules/inventory/index.ts'
import { createKdsService } from './modules/kds/index.ts'
import { createLaybysService } from './modules/laybys/index.ts'
import { createLocationsService } from './modules/locations/index.ts'
import { createLoyaltyService } from './modules/loyalty/index.ts'
import { createOAuthService } from './modules/oauth/index.ts'
import { createOrderRefunds, createOrdersService } from './modules/orders/index.ts'
import { createOrgsService, createSettingsService } from './modules/orgs/index.ts'
import { createPartnersService } from './modules/partners/index.ts'
import {
  cardTender,
  createPaymentsService,
  EXTERNAL_TENDER,
  type PaymentProcessor,
  type Tender,
  TestProcessor,
  withDeadline,
} from './modules/payments/index.ts'
import { createReceiptsService } from './modules/receipts/index.ts'
import { createRegistersService } from './modules/registers/index.ts'
import { createReportsService } from './modules/reports/index.ts'
import { createConflictsService, createOfflineSalesService, createSyncService } from './modules/sync/index.ts'
import { createTaxService } from './modules/tax/index.ts'
import { createWebhooksService } from './modules/webhooks/index.ts'
import type { Runtime } from './platform/runtime.ts'
import { cashTender } from './tenders/cash.ts'
import { giftCardTender } from './tenders/gift-card.ts'

/** Each domain's service, wired once per process: domains call each other only through these. */
export interface ServiceOptions {
  /** The card processor adapter (the built-in test processor unless given). */
  processor?: PaymentProcessor
  /** More ways to pay than the built-in ones (docs/commerce.md "Tenders"). */
  tenders?: readonly Tender[]
}

export function createServices(runtime: Runtime, options: ServiceOptions = {}) {
  const auth = createAuthService(runtime)
  const orgs = createOrgsService(runtime, auth)
  const locations = createLocationsService()
  const catalog = createCatalogService(orgs, locations)
  const inventory = createInventoryService({ orgs, catalog, locations })
  const registers = createRegistersService(orgs, locations)
  const events = createEventsService(runtime.config.eventRetentionDays)
  const kds = createKdsService(runtime)
  const webhooks = createWebhooksService(runtime)
  const integrations = createIntegrationsService(webhooks)
  const oauth = createOAuthService(runtime, auth)
  const invitations = createInvitationsService(runtime, auth)
  const sessionEnding = createSessionEnding(runtime, oauth.webSessions)
  const users = createUsersService(runtime, {
    invitations,
    sessions: sessionEnding,
    orgName: async (ctx) => (await orgs.getOrg(ctx)).name,
  })
  const passwords = createPasswordsService(runtime, sessionEnding)
  const audit = createAuditService()
  const settings = createSettingsService()
  const devices = createDevicesService(runtime, {
    auth,
    sessions: sessionEnding,
    locationOfRegister: async (ctx, id) => (await registers.getRegister(ctx, id)).location_id,
    approvalSettings: async (ctx) => (await orgs.pricingSettings(ctx)).manager_approval,
  })
  const partners = createPartnersService(orgs, oauth, invitations)
  const tax = createTaxService(orgs)
  const customers = createCustomersService(orgs, async (ctx) => (await auth.callerRole(ctx)) !== 'staff')
  const giftCards = createGiftCardsService(orgs, customers)
  const loyalty = createLoyaltyService({
    orgs,
    customers,
    catalog: {
      async categoriesOf(ctx, productIds) {
        const products = await catalog.products.byIds(ctx, productIds)
        return new Map(products.map((p) => [p.id, p.category_id]))
      },
    },
  })
  const campaigns = createCampaignsService({ orgs, locations, customers })
  const orders = createOrdersService({ inventory, customers, approvals: devices })
  // Two flows come before payments: the order side of taking a payment, which payments is given as its
  // OrderBalance, and the completion of a sale it calls.
  const completeSale = createCompleteSaleFlow({ orders, loyalty })
  const payments = createPaymentsService({
    orgs,
    orderBalance: createTakePaymentFlow({ orders, completeSale }),
    tenders: [
      cardTender(withDeadline(options.processor ?? new TestProcessor(), runtime.config.processorTimeoutMs)),
      cashTender(registers),
      giftCardTender(giftCards),
      EXTERNAL_TENDER,
      ...(options.tenders ?? []),
    ],
    secrets: runtime.secrets,
  })
  const laybys = createLaybysService({ locations, customers })
  const automations = createAutomationsService({
    locations,
    webhooks,
    campaigns,
    orgs,
    authors: { userStandings: auth.userStandings, grantStandings: oauth.grants.grantStandings },
    maxRules: runtime.config.automationsMaxRules,
  })
  const flows = createFlows({
    customers,
    events,
    webhooks,
    automations,
    loyalty,
    campaigns,
    orders,
    orderRefunds: createOrderRefunds(),
    payments,
    laybys,
    locations,
    registers,
    orgs,
    catalog,
    tax,
    completeSale,
    inventory,
    approvals: devices,
  })
  const reports = createReportsService({
    orgs,
    products: catalog.products,
    variants: catalog.variants,
    categories: catalog.categories,
    inventory,
    giftCards,
    loyalty,
    campaigns,
  })
  const receipts = createReceiptsService(runtime, {
    orders: { get: flows.orderDetail },
    settings,
    locations,
    customers,
    loyalty,
  })
  const sync = createSyncService({ catalog, tax, campaigns, payments, devices, settings, locations, registers })
  const offlineSales = createOfflineSalesService({
    orgs,
    catalog,
    orders,
    orderDetail: flows.orderDetail,
    completeSale,
    payments,
    giftCards,
    campaigns,
    inventory,
    registers,
    customers,
    staff: async (ctx) => new Set((await devices.staffOf(ctx)).map((s) => s.id)),
  })
  const syncConflicts = createConflictsService()
  return {
    flows,
    auth,
    orgs,
    catalog,
    locations,
    inventory,
    registers,
    events,
    kds,
    webhooks,
    integrations,
    oauth,
    tax,
    customers,
    giftCards,
    campaigns,
    loyalty,
    orders,
    payments,
    laybys,
    invitations,
    users,
    passwords,
    devices,
    audit,
    settings,
    partners,
    automations,
    reports,
    receipts,
    sync,
    offlineSales,
    syncConflicts,
  }
}

export type Services = ReturnType<typeof createServices>
