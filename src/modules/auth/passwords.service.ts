import type { FastifyBaseLogger } from 'fastify'
import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import { AppError, forbidden, invalid } from '../../platform/errors/app-error.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { queueMail } from '../../platform/mail/index.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { actingUser, recordAudit } from '../audit/index.ts'
import * as repo from './auth.repo.ts'
import { assertAcceptablePassword } from './password-policy.ts'
import * as resets from './password-resets.repo.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import type { SessionEnding } from './session-ending.ts'

/** How long a reset link works (issue 24: 30 minutes). */
const RESET_TTL_S = 30 * 60

const unusableReset = () =>
  new AppError('validation', 'the reset link is invalid, already used or expired', {
    errors: [{ field: 'token', message: 'is invalid, already used or expired', code: 'invalid_reset' }],
  })

function resetMail(url: string) {
  return {
    subject: 'Reset your OpenTill password',
    text: [
      'Someone (we hope you) asked to reset the password of your OpenTill account.',
      '',
      `Choose a new password here (the link works once, for 30 minutes): ${url}`,
      '',
      'Every session of your account ends once the new password is set.',
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  }
}

/** Changing a password with the current one, and resetting a forgotten one by e-mail. */
export function createPasswordsService(runtime: Runtime, sessions: SessionEnding) {
  const { database, config, secrets } = runtime

  /**
   * Ends the person's sessions in every org they belong to (but `keep`, the one asking), each org in its own
   * transaction; a person's password is theirs in all of them.
   */
  async function endSessionsEverywhere(personId: string, reason: string, keep?: string): Promise<void> {
    const memberships = await database.unscoped((q) => repo.membershipsOf(q, personId))
    const ended: string[] = []
    for (const m of memberships)
      ended.push(
        ...(await database.transaction(m.org_id, (q) => sessions.endSessions(q, m.org_id, m.user_id, reason, keep))),
      )
    await sessions.revokeAccessTokens(ended)
  }

  /** The reset link, queued in the transaction that stores it, for an address of an active person. */
  async function sendResetLink(email: string): Promise<void> {
    const person = await database.unscoped((q) => repo.personByEmail(q, email))
    const membership = person
      ? (await database.unscoped((q) => repo.membershipsOf(q, person.id))).find((m) => m.active)
      : undefined
    if (!person || !membership) return
    const orgId = membership.org_id
    await database.transaction(orgId, async (q) => {
      const token = randomToken('pwr')
      await resets.insertReset(q, {
        id: newId('pwr'),
        orgId,
        userId: membership.user_id,
        tokenHash: sha256Hex(token),
        ttlSeconds: RESET_TTL_S,
      })
      const url = `${config.appUrl}/reset-password/${token}`
      await queueMail(q, secrets, orgId, { to: person.email, ...resetMail(url) })
    })
  }

  return {
    /** The caller's own password, with the current one; the person's other sessions end, this one stays. */
    async change(ctx: RequestContext, current: string, next: string): Promise<void> {
      const userId = ctx.actor.kind === 'user' ? ctx.actor.userId : null
      if (!userId) throw forbidden('only a signed-in user changes their password; an app cannot')
      const user = await ctx.db.read((q) => repo.userById(q, ctx.orgId, userId))
      const person = user?.person_id ? await database.unscoped((q) => repo.personById(q, user.person_id!)) : undefined
      if (!person || !(await verifyPassword(person.password_hash, current)))
        throw invalid('current_password', 'is not your current password', 'incorrect')
      assertAcceptablePassword(next, 'new_password')
      const hash = await hashPassword(next)
      await ctx.db.tx(async (q) => {
        await repo.setPersonPassword(q, person.id, hash)
        await recordAudit(q, ctx, { action: 'user.password_changed', record: { type: 'user', id: userId } })
      })
      await endSessionsEverywhere(person.id, 'password changed', ctx.sessionId)
    },

    /**
     * Sends a single-use reset link to the address if it belongs to a person with an active membership. The work
     * runs after the caller has answered, so neither the answer nor its time says whether the address is known; a
     * request lost to a crash meanwhile is asked again by its person. The e-mail itself is queued (mail_outbox).
     */
    requestReset(email: string, log: FastifyBaseLogger): void {
      sendResetLink(email).catch((error: unknown) =>
        log.error({ err: error }, 'a password reset could not be prepared'),
      )
    },

    /** Sets the new password with a reset link's token, once; every session of the person ends, in every org. */
    async confirmReset(token: string, password: string): Promise<void> {
      assertAcceptablePassword(password)
      const tokenHash = sha256Hex(token.trim())
      const orgId = await database.unscoped((q) => resets.orgOfReset(q, tokenHash))
      if (!orgId) throw unusableReset()
      const hash = await hashPassword(password)
      const personId = await database.transaction(orgId, async (q) => {
        const reset = await resets.lockUsableReset(q, orgId, tokenHash)
        if (!reset) throw unusableReset()
        const user = await repo.userById(q, orgId, reset.user_id)
        if (!user?.person_id || user.deactivated) throw unusableReset()
        await resets.markUsed(q, orgId, reset.id)
        await repo.setPersonPassword(q, user.person_id, hash)
        await recordAudit(q, actingUser(orgId, user.id), {
          action: 'user.password_reset',
          record: { type: 'user', id: user.id },
        })
        return user.person_id
      })
      await endSessionsEverywhere(personId, 'password reset')
    },
  }
}

export type PasswordsService = ReturnType<typeof createPasswordsService>
