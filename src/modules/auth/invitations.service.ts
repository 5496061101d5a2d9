import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { AppError, invalid } from '../../platform/errors/app-error.ts'
import { emitEvent } from '../../platform/events/outbox.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { actingUser, recordAudit } from '../audit/index.ts'
import * as authRepo from './auth.repo.ts'
import type { AuthService } from './auth.service.ts'
import type { InvitationRow, Invitee } from './auth.tables.ts'
import * as repo from './invitations.repo.ts'
import { assertAcceptablePassword } from './password-policy.ts'
import { userResource } from './user-resource.ts'
import type { AcceptedInvitation } from './users.schemas.ts'

/** How long an invitation link works. */
const INVITATION_TTL_S = 7 * 86_400
const TOKEN_PREFIX = 'inv'

/** One answer for an unknown, used, revoked or expired link: the token is the only secret and reveals nothing. */
const unusable = () =>
  new AppError('validation', 'the invitation is invalid, already used or expired', {
    errors: [{ field: 'token', message: 'is invalid, already used or expired', code: 'invalid_invitation' }],
  })

/** One-time links that let an invited person (a provisioned tenant's owner, a new member of staff) set a password. */
export function createInvitationsService(runtime: Runtime, auth: AuthService) {
  const { database, config } = runtime

  return {
    /**
     * Invites `invitee` to `orgId` in the caller's transaction (scoped to that org); the link exists only in the
     * answer. No account is looked up or made until the link is accepted.
     */
    async invite(
      q: Queryable,
      orgId: string,
      invitee: Invitee,
      invitedBy: string | null = null,
    ): Promise<{ invitation: InvitationRow; url: string }> {
      const token = randomToken(TOKEN_PREFIX)
      const invitation = await repo.insertInvitation(q, {
        id: newId('inv'),
        orgId,
        invitee,
        invitedBy,
        tokenHash: sha256Hex(token),
        ttlSeconds: INVITATION_TTL_S,
      })
      return { invitation, url: `${config.appUrl}/invite/${token}` }
    },

    /**
     * Accepts an invitation, once. A new person chooses their password; a person who already has an OpenTill
     * account (another store's) joins with the password they have, which proves the e-mail is theirs. A user of
     * the org with this e-mail is refused, to the holder of the link, and the link stays usable.
     */
    /** The e-mail an invitation link is for, while it can be used; unusable (422) once used, withdrawn or expired. */
    async check(token: string): Promise<{ email: string }> {
      const hash = sha256Hex(token.trim())
      const orgId = await database.unscoped((q) => repo.orgOfInvitation(q, hash))
      const seen = orgId ? await database.read(orgId, (q) => repo.invitationByToken(q, orgId, hash)) : undefined
      if (!seen || seen.accepted || seen.expired || seen.revoked) throw unusable()
      return { email: seen.email }
    },

    async accept(
      token: string,
      password: string,
      /** Takes a sign-in attempt of the account's budget: a held link must not let anyone guess its password. */
      limitAccount: (email: string) => Promise<void>,
    ): Promise<AcceptedInvitation> {
      const hash = sha256Hex(token.trim())
      const orgId = await database.unscoped((q) => repo.orgOfInvitation(q, hash))
      if (!orgId) throw unusable()
      const usable = (i: InvitationRow | undefined): i is InvitationRow =>
        i !== undefined && !i.accepted && !i.expired && !i.revoked
      const seen = await database.read(orgId, (q) => repo.invitationByToken(q, orgId, hash))
      if (!usable(seen)) throw unusable()
      const person = await database.unscoped((q) => authRepo.personByEmail(q, seen.email))
      // Hashing and checking are slow: done before the transaction so the row lock is held only for the update.
      let account: { personId: string } | { passwordHash: string }
      if (person) {
        await limitAccount(person.email)
        const joined = await auth.verifiedPerson(person.email, password).catch(() => null)
        if (!joined)
          throw invalid('password', 'is not the password of the OpenTill account of this e-mail', 'incorrect')
        account = { personId: joined.id }
      } else {
        assertAcceptablePassword(password)
        account = { passwordHash: await auth.hashPassword(password) }
      }
      return database.transaction(orgId, async (q) => {
        const invitation = await repo.lockInvitation(q, orgId, hash)
        if (!usable(invitation)) throw unusable()
        const { name, role } = invitation
        const user = await auth.createUser(q, { orgId, email: invitation.email, name, role, ...account })
        await repo.markAccepted(q, orgId, invitation.id, user.id)
        await emitEvent(q, orgId, 'user.joined', userResource(user))
        await recordAudit(q, actingUser(orgId, user.id), {
          action: 'user.joined',
          record: { type: 'user', id: user.id },
          changes: { role, invitation_id: invitation.id },
        })
        return { user_id: user.id, email: user.email, org_id: orgId }
      })
    },
  }
}

export type InvitationsService = ReturnType<typeof createInvitationsService>
