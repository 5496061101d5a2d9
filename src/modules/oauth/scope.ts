import { MERCHANT_SCOPES } from '../auth/index.ts'

/** The credential partner provisioning takes: only partner apps get it, only through client credentials. */
export const PARTNER_SCOPE = 'partners:write'

const known = new Set<string>(MERCHANT_SCOPES)

/** RFC 6749 §3.3: a space-delimited list; an empty or absent value means none was asked for. */
export function parseScope(scope: string | undefined): string[] {
  if (!scope) return []
  return [...new Set(scope.split(' ').filter(Boolean))]
}

export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((s) => !known.has(s))
}

/** Granted = requested ∩ what the app may have ∩ what the approving user's role allows, in a stable order. */
export function grantedScopes(
  requested: readonly string[],
  allowed: readonly string[],
  roleScopes: readonly string[],
): string[] {
  const a = new Set(allowed)
  const r = new Set(roleScopes)
  return MERCHANT_SCOPES.filter((s) => requested.includes(s) && a.has(s) && r.has(s))
}

/** Plain words for the consent screen. */
export const scopeDescriptions: Record<string, string> = {
  'catalog:read': 'See your products, categories, modifiers and price lists',
  'catalog:write': 'Create and change your products, categories and price lists',
  'orders:read': 'See your orders and their line items',
  'orders:write': 'Create orders, change their status and issue refunds',
  'customers:read': 'See and search your customer profiles',
  'customers:write': 'Create and update your customer records',
  'loyalty:read': 'See your loyalty programs, members and point balances',
  'loyalty:write': 'Enrol customers in your loyalty program and redeem their points',
  'loyalty:adjust': 'Add loyalty points to any customer by hand, outside a sale',
  'payments:read': 'See your payments and payment methods',
  'payments:write': 'Take, capture and void payments',
  'inventory:read': 'See your stock levels, movements and alerts',
  'inventory:write': 'Adjust stock and move it between locations',
  'reports:read': 'See your sales, inventory and financial reports',
  'webhooks:write': 'Register and manage webhook subscriptions',
  'automations:read': 'See your automation rules and their history',
  'automations:write': 'Create and change automation rules',
  'campaigns:read': 'See your campaigns and their results',
  'campaigns:write': 'Create and change campaigns and vouchers',
  'gift_cards:write': 'Issue, load and disable gift cards of any value, outside a sale',
  'settings:write': "Change your store's settings, tax rates and accepted payment methods",
  'users:read': 'See your staff accounts and pending invitations',
  'users:write': 'Invite staff, change their roles and deactivate their accounts',
  'audit:read': 'See the audit log of who did what in your store',
}
