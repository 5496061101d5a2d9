import type { Role } from '../../platform/http/context.ts'

/**
 * SPEC's scopes plus docs/decisions.md's: the campaigns scopes, `gift_cards:write` (issuing, loading or disabling a
 * gift card outside a paid sale), `loyalty:adjust` (points by hand, outside a sale), `settings:write` (the store's
 * settings, tax rates, payment methods), `users:read`/`users:write` (staff accounts; a manager manages staff only)
 * and `audit:read` (the audit log), which staff do not hold.
 * `partners:write` is for partner apps only.
 */
export const MERCHANT_SCOPES = [
  'catalog:read',
  'catalog:write',
  'orders:read',
  'orders:write',
  'customers:read',
  'customers:write',
  'loyalty:read',
  'loyalty:write',
  'loyalty:adjust',
  'payments:read',
  'payments:write',
  'inventory:read',
  'inventory:write',
  'reports:read',
  'webhooks:write',
  'automations:read',
  'automations:write',
  'campaigns:read',
  'campaigns:write',
  'gift_cards:write',
  'settings:write',
  'users:read',
  'users:write',
  'audit:read',
] as const

type Scope = (typeof MERCHANT_SCOPES)[number]

const staffScopes: Scope[] = [
  'catalog:read',
  'inventory:read',
  'orders:read',
  'orders:write',
  'payments:read',
  'payments:write',
  'customers:read',
  'customers:write',
  'loyalty:read',
  'loyalty:write',
  'campaigns:read',
]

/**
 * The scope of a paired till's own access token (POST /devices/token): carrying the catalog and sending sales made
 * offline (docs/sync.md). No role and no app holds it, so staff and apps cannot call the sync endpoints.
 */
export const TILL_SCOPE = 'till:sync'

/**
 * Registering the store's own OAuth apps and disconnecting the apps it let in (`/apps`, `/connected-apps`): owners
 * only, and outside MERCHANT_SCOPES, so no app can ever be granted it.
 */
export const APPS_SCOPE = 'apps:write'

/** Consenting to an app is for owners and managers (docs/decisions.md "Scopes"): the roles that hold it. */
export const CONSENT_SCOPE: Scope = 'settings:write'

/** The scopes a role's login tokens carry: owners everything, managers all but integrations, staff the till. */
export function scopesOfRole(role: Role): string[] {
  if (role === 'owner') return [...MERCHANT_SCOPES, APPS_SCOPE]
  if (role === 'manager') return MERCHANT_SCOPES.filter((s) => s !== 'webhooks:write')
  return [...staffScopes]
}
