import type { Queryable } from '../../platform/db/database.ts'
import type { Runtime } from '../../platform/runtime.ts'
import * as repo from './auth.repo.ts'

/** What ends a user's browser sessions (the web app's, kept by the OAuth module). */
export interface WebSessionsPort {
  signOutUser(q: Queryable, orgId: string, userId: string): Promise<void>
}

/** Puts sessions on the revocation list every instance checks, until their last access token has expired anyway. */
export async function revokeAccessTokens(runtime: Pick<Runtime, 'config' | 'revocations'>, ids: readonly string[]) {
  const until = Date.now() + runtime.config.accessTokenTtlS * 1000
  for (const id of ids) await runtime.revocations.revoke(id, until)
}

/**
 * Ends every session of a user (deactivation, a role change, a new password): the rows and the web sessions in
 * the caller's transaction, then, once it committed, the access tokens on every instance (the revocation list).
 */
export function createSessionEnding(runtime: Runtime, webSessions: WebSessionsPort) {
  const { config } = runtime
  return {
    /** Answers the sessions whose access tokens may still be alive, for `revokeAccessTokens` after the commit. */
    async endSessions(q: Queryable, orgId: string, userId: string, reason: string, keep?: string): Promise<string[]> {
      await webSessions.signOutUser(q, orgId, userId)
      return repo.endSessions(q, orgId, { userId }, { reason, recentS: config.accessTokenTtlS, keep })
    },

    revokeAccessTokens: (sessionIds: readonly string[]) => revokeAccessTokens(runtime, sessionIds),
  }
}

export type SessionEnding = ReturnType<typeof createSessionEnding>
