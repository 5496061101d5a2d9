import type { Queryable } from '../../platform/db/database.ts'
import type { RequestContext, Role } from '../../platform/http/context.ts'
import { AuthErrors } from './auth.errors.ts'
import * as repo from './auth.repo.ts'

/** Which roles a role may invite or manage: owners any, managers staff only (docs/people-and-settings.md). */
export function mayManage(actor: Role, target: Role): boolean {
  return actor === 'owner' || target === 'staff'
}

/** The role the caller acts with: its user's (an app's, the user who approved it); managers' without one. */
export async function roleOfCaller(q: Queryable, ctx: RequestContext): Promise<Role> {
  if (!ctx.actor.userId) return 'manager'
  const user = await repo.userById(q, ctx.orgId, ctx.actor.userId)
  if (!user || user.deactivated) throw AuthErrors.ROLE_NOT_ALLOWED('the user behind this credential is not active')
  return user.role
}
