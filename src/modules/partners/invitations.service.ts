import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { AppError, invalid } from '../../platform/errors/app-error.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { AuthService } from '../auth/index.ts'
import * as repo from './invitations.repo.ts'
import type { AcceptedInvitation, Invitation } from './partners.schemas.ts'
import type { Invitee } from './partners.tables.ts'

/** How long an invitation link works. */
const INVITATION_TTL_S = 7 * 86_400
const TOKEN_PREFIX = 'inv'
const MIN_PASSWORD = 10

/** One answer for an unknown, used or expired link: the token is the only secret and reveals nothing. */
const unusable = () =>
  new AppError('validation', 'the invitation is invalid, already used or expired', {
    errors: [{ field: 'token', message: 'is invalid, already used or expired', code: 'invalid_invitation' }],
  })

/** One-time links that let an invited user (a provisioned tenant's owner) set a password. */
export function createInvitationsService(runtime: Runtime, auth: AuthService) {
  const { database, config } = runtime

  return {
    /**
     * Invites `invitee` to `orgId` in the caller's transaction (scoped to that org); the link exists only in the
     * answer. No account is looked up or made until the link is accepted.
     */
    async invite(q: Queryable, orgId: string, invitee: Invitee): Promise<Invitation> {
      const token = randomToken(TOKEN_PREFIX)
      const row = await repo.insertInvitation(q, {
        id: newId('inv'),
        orgId,
        invitee,
        tokenHash: sha256Hex(token),
        ttlSeconds: INVITATION_TTL_S,
      })
      return { url: `${config.appUrl}/invite/${token}`, expires_at: row.expires_at }
    },

    /**
     * Makes the invited account with its password, once; afterwards the user logs in as any other. An e-mail
     * registered meanwhile (or before) is refused here, to the holder of the link, and the link stays usable.
     */
    async accept(token: string, password: string): Promise<AcceptedInvitation> {
      if (password.length < MIN_PASSWORD)
        throw invalid('password', `must be at least ${MIN_PASSWORD} characters`, 'too_short')
      const hash = sha256Hex(token.trim())
      const orgId = await database.unscoped((q) => repo.orgOfInvitation(q, hash))
      if (!orgId) throw unusable()
      // Hashing is slow: done before the transaction so the row lock is held only for the update.
      const passwordHash = await auth.hashPassword(password)
      return database.transaction(orgId, async (q) => {
        const invitation = await repo.lockInvitation(q, orgId, hash)
        if (!invitation || invitation.accepted || invitation.expired) throw unusable()
        const { email, name, role } = invitation
        const user = await auth.createUser(q, { orgId, email, name, role, passwordHash })
        await repo.markAccepted(q, orgId, invitation.id, user.id)
        return { user_id: user.id, email: user.email, org_id: orgId }
      })
    },
  }
}

export type InvitationsService = ReturnType<typeof createInvitationsService>
