import { notFound } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import { staleVersion } from '../../platform/http/concurrency.ts'
import type { RequestContext, Role } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import { queueMail } from '../../platform/mail/index.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { changedFields, recordAudit } from '../audit/index.ts'
import { AuthErrors } from './auth.errors.ts'
import * as repo from './auth.repo.ts'
import * as invitationsRepo from './invitations.repo.ts'
import type { InvitationsService } from './invitations.service.ts'
import type { SessionEnding } from './session-ending.ts'
import { invitationResource, userResource } from './user-resource.ts'
import { mayManage, roleOfCaller } from './user-roles.ts'
import type {
  Invitation,
  InvitationListQuery,
  InviteUserBody,
  SentInvitation,
  UpdateUserBody,
  User,
  UserListQuery,
} from './users.schemas.ts'

const roleNotAllowed = (detail: string, field = 'role') =>
  AuthErrors.ROLE_NOT_ALLOWED(detail, { errors: [{ field, message: detail, code: 'role_not_allowed' }] })

function invitationMail(orgName: string, role: Role, url: string) {
  return {
    subject: `You are invited to ${orgName} on OpenTill`,
    text: [
      `You have been invited to join ${orgName} on OpenTill as ${role === 'staff' ? 'a member of staff' : `${role}`}.`,
      '',
      `Choose your password here (the link works once, for 7 days): ${url}`,
      '',
      'If you did not expect this invitation, ignore this e-mail.',
    ].join('\n'),
  }
}

/** Staff accounts: invitations, roles, deactivation (issue 24, docs/people-and-settings.md). */
export function createUsersService(
  runtime: Runtime,
  deps: { invitations: InvitationsService; sessions: SessionEnding; orgName(ctx: RequestContext): Promise<string> },
) {
  const { config, secrets } = runtime
  const { endSessions, revokeAccessTokens } = deps.sessions

  return {
    async list(ctx: RequestContext, query: UserListQuery): Promise<Page<User>> {
      const rows = await ctx.db.read((q) =>
        repo.listUsers(q, ctx.orgId, {
          role: query.role,
          deactivated: query.status === undefined ? undefined : query.status === 'deactivated',
          afterId: afterIdOf(query.cursor),
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], userResource)
    },

    async get(ctx: RequestContext, id: string): Promise<User> {
      const row = await ctx.db.read((q) => repo.userById(q, ctx.orgId, id))
      if (!row) throw notFound('user')
      return userResource(row)
    },

    async pendingInvitations(ctx: RequestContext, query: InvitationListQuery): Promise<Page<Invitation>> {
      const rows = await ctx.db.read((q) =>
        invitationsRepo.pendingInvitations(q, ctx.orgId, afterIdOf(query.cursor), query.limit + 1),
      )
      return toPage(rows, query.limit, (r) => [r.id], invitationResource)
    },

    /**
     * Invites a person by e-mail with a role: the link goes by e-mail when SMTP is configured, else it is in the
     * answer for the inviter to pass on. A new invitation of the same e-mail replaces a pending one.
     */
    async invite(ctx: RequestContext, body: InviteUserBody): Promise<SentInvitation> {
      const email = body.email.trim()
      const byEmail = config.smtpUrl !== undefined
      // The org's name is only for the e-mail's words: read when there is an e-mail to write.
      const orgName = byEmail ? await deps.orgName(ctx) : ''
      return ctx.db.tx(async (q) => {
        const role = await roleOfCaller(q, ctx)
        if (!mayManage(role, body.role)) throw roleNotAllowed(`a ${role} can invite staff only`)
        if (await repo.userByEmail(q, ctx.orgId, email))
          throw AuthErrors.EMAIL_TAKEN('a user of this org already has this e-mail', {
            errors: [{ field: 'email', message: 'is already a user of this org', code: 'taken' }],
          })
        // A new invitation replaces the pending ones of this e-mail, which the caller must be able to manage too.
        const pending = await invitationsRepo.pendingOfEmail(q, ctx.orgId, email)
        if (pending.some((i) => !mayManage(role, i.role)))
          throw roleNotAllowed(`a ${role} cannot replace an invitation of a manager or an owner`, 'email')
        await invitationsRepo.revokeInvitations(q, ctx.orgId, { email })
        const invitee = { email, name: body.name ?? '', role: body.role }
        const { invitation, url } = await deps.invitations.invite(q, ctx.orgId, invitee, ctx.actor.userId)
        if (byEmail) await queueMail(q, secrets, ctx.orgId, { to: email, ...invitationMail(orgName, body.role, url) })
        const resource = invitationResource(invitation)
        await emitEvent(q, ctx.orgId, 'user.invited', resource)
        await recordAudit(q, ctx, {
          action: 'user.invited',
          record: { type: 'invitation', id: invitation.id },
          changes: { role: body.role },
        })
        return { ...resource, delivery: byEmail ? 'email' : 'link', ...(byEmail ? {} : { url }) }
      })
    },

    async revokeInvitation(ctx: RequestContext, id: string): Promise<void> {
      await ctx.db.tx(async (q) => {
        const invitation = await invitationsRepo.invitationById(q, ctx.orgId, id)
        if (!invitation || invitation.accepted || invitation.revoked) throw notFound('invitation')
        const role = await roleOfCaller(q, ctx)
        if (!mayManage(role, invitation.role)) throw roleNotAllowed(`a ${role} can revoke invitations of staff only`)
        await invitationsRepo.revokeInvitations(q, ctx.orgId, { id })
        await recordAudit(q, ctx, { action: 'user.invitation_revoked', record: { type: 'invitation', id } })
      })
    },

    /**
     * Renames, changes the role of, deactivates or reactivates a user. A role change or a deactivation ends every
     * session of the user at once, on every instance; the org always keeps an active owner.
     */
    async update(ctx: RequestContext, id: string, body: UpdateUserBody, expected?: number): Promise<User> {
      const { user, ended } = await ctx.db.tx(async (q) => {
        const role = await roleOfCaller(q, ctx)
        // Locks in one order whoever asks: the active owners (id order) when the target is one of them, then the
        // target, so that two owners changing each other wait instead of deadlocking.
        const seen = await repo.userById(q, ctx.orgId, id)
        if (!seen) throw notFound('user')
        const owners = seen.role === 'owner' && !seen.deactivated ? await repo.lockActiveOwners(q, ctx.orgId) : null
        const before = await repo.lockUser(q, ctx.orgId, id)
        if (!before) throw notFound('user')
        if (expected !== undefined && expected !== before.version) throw staleVersion(before.version)
        const next = {
          name: body.name ?? before.name,
          role: body.role ?? before.role,
          deactivated: body.active === undefined ? before.deactivated : !body.active,
        }
        if (!mayManage(role, before.role)) throw roleNotAllowed(`a ${role} can manage staff only`, 'id')
        if (!mayManage(role, next.role)) throw roleNotAllowed(`a ${role} cannot make anyone ${next.role}`)
        const removesOwner =
          before.role === 'owner' && !before.deactivated && (next.role !== 'owner' || next.deactivated)
        const stillOwners = owners ?? (removesOwner ? await repo.lockActiveOwners(q, ctx.orgId) : [])
        if (removesOwner && stillOwners.filter((o) => o !== id).length === 0)
          throw AuthErrors.LAST_OWNER('the org must keep at least one active owner', {
            errors: [
              {
                field: next.deactivated ? 'active' : 'role',
                message: 'would leave no active owner',
                code: 'last_owner',
              },
            ],
          })
        const changes = changedFields(
          { name: before.name, role: before.role, active: !before.deactivated },
          { name: next.name, role: next.role, active: !next.deactivated },
          ['name', 'role', 'active'],
        )
        // Nothing to change; a deactivated user's sessions are ended again, for a retry of a request whose answer
        // was lost before their access tokens were revoked.
        if (Object.keys(changes).length === 0)
          return {
            user: before,
            ended: before.deactivated ? await endSessions(q, ctx.orgId, id, 'user deactivated') : [],
          }
        const after = await repo.updateUser(q, ctx.orgId, id, next)
        const resource = userResource(after)
        const deactivated = next.deactivated && !before.deactivated
        const ended =
          next.deactivated || next.role !== before.role
            ? await endSessions(q, ctx.orgId, id, deactivated ? 'user deactivated' : 'role changed')
            : []
        await emitEvent(q, ctx.orgId, deactivated ? 'user.deactivated' : 'user.updated', resource)
        await recordAudit(q, ctx, {
          action: deactivated
            ? 'user.deactivated'
            : before.deactivated && !next.deactivated
              ? 'user.reactivated'
              : 'user.updated',
          record: { type: 'user', id },
          changes,
        })
        return { user: after, ended }
      })
      await revokeAccessTokens(ended)
      return userResource(user)
    },
  }
}

export type UsersService = ReturnType<typeof createUsersService>
