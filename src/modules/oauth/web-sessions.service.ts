import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { AppError, unauthorized } from '../../platform/errors/app-error.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { AuthService, LoginSession } from '../auth/index.ts'
import * as repo from './web-sessions.repo.ts'

export interface WebSession {
  orgId: string
  userId: string
  email: string
  /** The scopes of the user's role: the most a consent given in this session can grant. */
  scopes: string[]
  csrfToken: string
  /** The API session the sign-in opened: the back office's access tokens carry it, and signing out revokes it. */
  apiSessionId: string | null
}

/** The API's client id of a person's own sessions (its login and the web app alike). */
const FIRST_PARTY_CLIENT = 'first-party'

const SESSION_TTL_S = 8 * 3600
/** The client id of the proof a person of several stores holds while choosing one. */
const PENDING_SIGN_IN = 'web-sign-in'

/** Browser sessions of the web app (consent screen, dashboard), behind an HttpOnly cookie. */
export function createWebSessionsService(runtime: Runtime, auth: AuthService) {
  const { database, accessTokens } = runtime

  /**
   * Keeps what a login proved (user, org, role scopes) in a web session with the API session the login opened; its
   * refresh token is dropped, so the browser never holds one: the back office asks the web app for short-lived access
   * tokens of that session (`accessTokenOf`). A deactivation, role or password change ends both. Answers the cookie.
   */
  async function fromLogin(login: LoginSession): Promise<{ cookie: string; session: WebSession }> {
    const claims = await accessTokens.verify(login.accessToken)
    if (!claims?.userId) throw new Error('the login token could not be verified')
    const cookie = randomToken('ows')
    const session: WebSession = {
      orgId: claims.orgId,
      userId: claims.userId,
      email: login.user.email,
      scopes: claims.scopes,
      csrfToken: randomToken('csrf', 24),
      apiSessionId: claims.sid,
    }
    // A session that could not be kept leaves no API session open behind it.
    await database
      .transaction(session.orgId, async (q) => {
        // A deactivation or role change that committed since the login is seen here; one committing meanwhile waits
        // and then deletes this session too.
        if (!(await auth.activeUserShared(q, session.orgId, session.userId)))
          throw unauthorized('the e-mail or password is incorrect')
        await repo.insertWebSession(q, {
          hash: sha256Hex(cookie),
          orgId: session.orgId,
          userId: session.userId,
          userEmail: session.email,
          scopes: session.scopes,
          csrfToken: session.csrfToken,
          apiSessionId: claims.sid,
          ttlSeconds: SESSION_TTL_S,
        })
      })
      .catch(async (error: unknown) => {
        await auth.logout({ ...systemContext(database, claims.orgId, claims.scopes), sessionId: claims.sid })
        throw error
      })
    return { cookie, session }
  }

  return {
    ttlSeconds: SESSION_TTL_S,

    /**
     * Checks the credentials with the login use case (same hashing, same answer for unknown e-mails). A person
     * of one store is signed in (`fromLogin`); a person of several gets the stores to choose from and a
     * short-lived proof of the password (`pending`, a signed token of no org and no scope) for `signInToStore`.
     */
    async signIn(
      email: string,
      password: string,
    ): Promise<
      | { kind: 'signed-in'; cookie: string; session: WebSession }
      | { kind: 'choose'; orgs: { id: string; name: string }[]; pending: string }
    > {
      const person = await auth.verifiedPerson(email, password)
      try {
        return {
          kind: 'signed-in',
          ...(await fromLogin(await auth.signInAsMember(await auth.membershipFor(person.id)))),
        }
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'ORG_REQUIRED' || !error.orgs) throw error
        const pending = await accessTokens.sign({
          sub: person.id,
          orgId: '',
          scopes: [],
          sid: randomToken('pend', 16),
          clientId: PENDING_SIGN_IN,
          actorKind: 'user',
          userId: null,
        })
        return { kind: 'choose', orgs: error.orgs, pending }
      }
    },

    /** Finishes a sign-in whose person chose a store: `pending` is what `signIn` answered, for 15 minutes. */
    async signInToStore(pending: string, orgId: string): Promise<{ cookie: string; session: WebSession }> {
      const claims = await accessTokens.verify(pending)
      if (!claims || claims.clientId !== PENDING_SIGN_IN || claims.orgId !== '')
        throw unauthorized('the sign-in expired; sign in again')
      return fromLogin(await auth.signInAsMember(await auth.membershipFor(claims.sub, orgId)))
    },

    async find(cookie: string | undefined): Promise<WebSession | null> {
      if (!cookie || !/^ows_[A-Za-z0-9_-]{20,100}$/.test(cookie)) return null
      const hash = sha256Hex(cookie)
      const orgId = await database.unscoped((q) => repo.orgOfWebSession(q, hash))
      if (!orgId) return null
      const row = await database.read(orgId, (q) => repo.webSessionByHash(q, orgId, hash))
      if (!row) return null
      return {
        orgId,
        userId: row.user_id,
        email: row.user_email,
        scopes: row.scopes,
        csrfToken: row.csrf_token,
        apiSessionId: row.api_session_id,
      }
    },

    /**
     * A short-lived access token of the session's API session, for the back office in the browser; null for a
     * session signed in before the back office existed (it has no API session: sign in again).
     */
    async accessTokenOf(session: WebSession): Promise<{ accessToken: string; expiresIn: number } | null> {
      if (!session.apiSessionId) return null
      // Its API session ended some other way (a logout with one of its tokens): the browser session ends with it,
      // rather than hand out tokens of a revoked session.
      if (!(await auth.sessionIsLive(session.orgId, session.apiSessionId))) {
        const apiSessionId = session.apiSessionId
        await database.transaction(session.orgId, (q) =>
          repo.deleteWebSessionsOfApiSession(q, session.orgId, apiSessionId),
        )
        return null
      }
      const accessToken = await accessTokens.sign({
        sub: session.userId,
        orgId: session.orgId,
        scopes: session.scopes,
        sid: session.apiSessionId,
        clientId: FIRST_PARTY_CLIENT,
        actorKind: 'user',
        userId: session.userId,
        registerId: null,
      })
      return { accessToken, expiresIn: accessTokens.ttlSeconds }
    },

    /** Ends every browser session of a user, in the caller's transaction (deactivation, role or password change). */
    signOutUser(q: Queryable, orgId: string, userId: string): Promise<void> {
      return repo.deleteWebSessionsOfUser(q, orgId, userId)
    },

    /** Ends the browser session and the API session behind it (the back office's tokens are refused at once). */
    async signOut(cookie: string, session: WebSession): Promise<void> {
      await database.transaction(session.orgId, (q) => repo.deleteWebSession(q, session.orgId, sha256Hex(cookie)))
      if (session.apiSessionId)
        await auth.logout({
          ...systemContext(database, session.orgId, session.scopes),
          sessionId: session.apiSessionId,
        })
    },
  }
}
