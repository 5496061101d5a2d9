import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router'
import { Layout } from './layout.tsx'
import { AuditPage, type AuditSearch } from './pages/audit.tsx'
import { AutomationPage } from './pages/automation.tsx'
import { AutomationsPage } from './pages/automations.tsx'
import { CampaignPage } from './pages/campaign.tsx'
import { CampaignsPage, type CampaignsSearch } from './pages/campaigns.tsx'
import { CustomerPage } from './pages/customer.tsx'
import { CustomersPage } from './pages/customers.tsx'
import { DevelopersPage } from './pages/developers.tsx'
import { GiftCardPage, GiftCardsPage } from './pages/gift-cards.tsx'
import { HomePage } from './pages/home.tsx'
import { InventoryPage, type InventorySearch } from './pages/inventory.tsx'
import { ItemPage } from './pages/item.tsx'
import { ItemsPage } from './pages/items.tsx'
import { LoyaltyPage } from './pages/loyalty.tsx'
import { NotFoundPage } from './pages/not-found.tsx'
import { OrderPage } from './pages/order.tsx'
import { OrdersPage, type OrdersSearch } from './pages/orders.tsx'
import { RegistersPage } from './pages/registers.tsx'
import { ReportsPage, type ReportsSearch } from './pages/reports.tsx'
import { SalePage } from './pages/sale.tsx'
import { SettingsPage } from './pages/settings.tsx'
import { StaffPage } from './pages/staff.tsx'
import { WebhooksPage } from './pages/webhooks.tsx'

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

const root = createRootRoute({ component: Layout, notFoundComponent: NotFoundPage })
const page = <P extends string>(path: P, component: () => React.ReactNode) =>
  createRoute({ getParentRoute: () => root, path, component })

const routeTree = root.addChildren([
  page('/', HomePage),
  page('/sale', SalePage),
  createRoute({
    getParentRoute: () => root,
    path: '/orders',
    component: OrdersPage,
    // The filters live in the address, so a search can be bookmarked, shared and gone back to.
    validateSearch: (s: Record<string, unknown>): OrdersSearch => ({
      number: text(s.number),
      status: text(s.status),
      location_id: text(s.location_id),
      register_id: text(s.register_id),
      customer: text(s.customer),
      from: text(s.from),
      to: text(s.to),
    }),
  }),
  createRoute({ getParentRoute: () => root, path: '/orders/$orderId', component: OrderPage }),
  page('/items', ItemsPage),
  createRoute({ getParentRoute: () => root, path: '/items/$productId', component: ItemPage }),
  createRoute({
    getParentRoute: () => root,
    path: '/inventory',
    component: InventoryPage,
    validateSearch: (s: Record<string, unknown>): InventorySearch => ({
      product_id: text(s.product_id),
      location_id: text(s.location_id),
    }),
  }),
  page('/registers', RegistersPage),
  createRoute({
    getParentRoute: () => root,
    path: '/campaigns',
    component: CampaignsPage,
    validateSearch: (s: Record<string, unknown>): CampaignsSearch => ({ status: text(s.status) }),
  }),
  createRoute({ getParentRoute: () => root, path: '/campaigns/$campaignId', component: CampaignPage }),
  page('/customers', CustomersPage),
  page('/loyalty', LoyaltyPage),
  createRoute({ getParentRoute: () => root, path: '/customers/$customerId', component: CustomerPage }),
  page('/gift-cards', GiftCardsPage),
  createRoute({ getParentRoute: () => root, path: '/gift-cards/$cardId', component: GiftCardPage }),
  page('/staff', StaffPage),
  page('/developers', DevelopersPage),
  page('/webhooks', WebhooksPage),
  page('/automations', AutomationsPage),
  createRoute({ getParentRoute: () => root, path: '/automations/$automationId', component: AutomationPage }),
  page('/settings', SettingsPage),
  createRoute({
    getParentRoute: () => root,
    path: '/audit',
    component: AuditPage,
    validateSearch: (s: Record<string, unknown>): AuditSearch => ({
      user_id: text(s.user_id),
      action: text(s.action),
      record_id: text(s.record_id),
      from: text(s.from),
      to: text(s.to),
    }),
  }),
  createRoute({
    getParentRoute: () => root,
    path: '/reports',
    component: ReportsPage,
    validateSearch: (s: Record<string, unknown>): ReportsSearch => ({
      report: text(s.report),
      group_by: text(s.group_by),
      from: text(s.from),
      to: text(s.to),
      location_id: text(s.location_id),
    }),
  }),
])

export const router = createRouter({ routeTree, basepath: '/dashboard', defaultPreload: false })

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
