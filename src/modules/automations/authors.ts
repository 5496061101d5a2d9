import type { RequestContext } from '../../platform/http/context.ts'
import type { Action } from './automations.schemas.ts'

/** Who last saved a rule, as its row keeps it (db/migrations/0134_automation_authors.sql). */
export interface AuthorColumns {
  author_user_id: string | null
  author_client_id: string
  author_grant_id: string | null
  author_scopes: string[]
}

/** What the auth and OAuth modules say of users and grants, entered through their services. */
export interface AuthorDirectory {
  userStandings(
    ctx: RequestContext,
    ids: readonly string[],
  ): Promise<Map<string, { active: boolean; scopes: readonly string[] }>>
  grantStandings(
    ctx: RequestContext,
    ids: readonly string[],
  ): Promise<Map<string, { scopes: readonly string[]; revokedReason: string | null }>>
}

/** Why a rule does not run: its author can no longer act for the org. */
interface Stopped {
  code: 'AUTOMATION_AUTHOR_DEACTIVATED' | 'AUTOMATION_AUTHOR_REVOKED' | 'AUTOMATION_AUTHOR_MISSING'
  message: string
}

/** What a rule may do today. */
export interface Standing {
  stopped: Stopped | null
  /** The scopes its actions run with: those its author held when saving it and still holds. */
  scopes: ReadonlySet<string>
}

/** The scope each action needs of the rule's author (docs/automations.md "Authors and scopes"). */
export const ACTION_SCOPES: Readonly<Record<Action['type'], string | null>> = {
  accrue_points: 'loyalty:adjust',
  issue_voucher: 'campaigns:write',
  send_webhook: 'webhooks:write',
  tag_customer: 'customers:write',
  adjust_inventory: 'inventory:write',
  send_email: 'customers:read',
  wait: null,
}

/** The author columns of a rule saved through `ctx`: a login's user, or an app's grant (an access token's sid). */
export function authorOf(ctx: RequestContext): AuthorColumns {
  const app = ctx.actor.kind === 'app'
  return {
    author_user_id: app ? null : ctx.actor.userId,
    author_client_id: ctx.actor.clientId,
    author_grant_id: app ? ctx.sessionId : null,
    author_scopes: [...ctx.scopes].sort(),
  }
}

const stopped = (code: Stopped['code'], message: string): Standing => ({
  stopped: { code, message },
  scopes: new Set(),
})

/** The standing of each rule's author, in the order given; one look-up of users and one of grants. */
export async function standingsOf(
  directory: AuthorDirectory,
  ctx: RequestContext,
  rules: readonly AuthorColumns[],
): Promise<Standing[]> {
  const userIds = [
    ...new Set(rules.flatMap((r) => (r.author_grant_id === null && r.author_user_id ? [r.author_user_id] : []))),
  ]
  const grantIds = [...new Set(rules.flatMap((r) => (r.author_grant_id ? [r.author_grant_id] : [])))]
  // One after the other: inside a worker's transaction both run on its one connection.
  const users = userIds.length > 0 ? await directory.userStandings(ctx, userIds) : new Map()
  const grants = grantIds.length > 0 ? await directory.grantStandings(ctx, grantIds) : new Map()
  return rules.map((rule): Standing => {
    const held = (now: readonly string[]) => new Set(rule.author_scopes.filter((s) => now.includes(s)))
    if (rule.author_grant_id !== null) {
      const grant = grants.get(rule.author_grant_id)
      if (!grant)
        return stopped(
          'AUTOMATION_AUTHOR_MISSING',
          `the app ${rule.author_client_id} that saved the rule no longer has a grant`,
        )
      if (grant.revokedReason !== null)
        return stopped(
          'AUTOMATION_AUTHOR_REVOKED',
          `the grant of the app ${rule.author_client_id} that saved the rule was revoked (${grant.revokedReason}); save the rule again to run it`,
        )
      return { stopped: null, scopes: held(grant.scopes) }
    }
    const user = rule.author_user_id ? users.get(rule.author_user_id) : undefined
    if (!user)
      return stopped(
        'AUTOMATION_AUTHOR_MISSING',
        'the rule has no author who can act for the org; save it again to run it',
      )
    if (!user.active)
      return stopped(
        'AUTOMATION_AUTHOR_DEACTIVATED',
        `the user ${rule.author_user_id} who saved the rule was deactivated; save it again to run it`,
      )
    return { stopped: null, scopes: held(user.scopes) }
  })
}

/**
 * The scope that reads the data of an event, by its resource (its name's first part): what a reader of a run's data
 * needs, and what the author of a rule that e-mails that data out must hold.
 */
const EVENT_DATA_SCOPES: Readonly<Record<string, string>> = {
  order: 'orders:read',
  layby: 'orders:read',
  gift_card: 'orders:read',
  payment: 'payments:read',
  customer: 'customers:read',
  loyalty: 'loyalty:read',
  inventory: 'inventory:read',
  campaign: 'campaigns:read',
  automation: 'automations:read',
  schedule: 'automations:read',
}

/** Whether `scopes` cover the data of an event of this name (an unknown resource is covered by none). */
export function mayReadData(event: string, scopes: ReadonlySet<string>): boolean {
  const scope = EVENT_DATA_SCOPES[event.split('.')[0]]
  return scope !== undefined && scopes.has(scope)
}

/**
 * The scope an action of a rule on `event` needs that `scopes` lack, or null. An e-mail can carry any of the
 * event's data to any address, so it also needs the scope that reads that data (an order event's: orders:read).
 */
export function missingScope(action: Action, scopes: ReadonlySet<string>, event: string): string | null {
  const needed = ACTION_SCOPES[action.type]
  if (needed !== null && !scopes.has(needed)) return needed
  if (action.type === 'send_email' && !mayReadData(event, scopes))
    return EVENT_DATA_SCOPES[event.split('.')[0]] ?? 'webhooks:write'
  return null
}
