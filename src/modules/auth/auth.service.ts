import { newId } from '../../platform/crypto/ids.ts'
import { randomToken, sha256Hex } from '../../platform/crypto/tokens.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { notFound, unauthorized } from '../../platform/errors/app-error.ts'
import type { RequestContext, Role } from '../../platform/http/context.ts'
import type { Runtime } from '../../platform/runtime.ts'
import { AuthErrors } from './auth.errors.ts'
import * as repo from './auth.repo.ts'
import type { LoginSession, Me } from './auth.schemas.ts'
import type { MembershipRow, PersonRow, UserRow } from './auth.tables.ts'
import * as devicesRepo from './devices.repo.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { scopesOfRole } from './scopes.ts'
import { revokeAccessTokens } from './session-ending.ts'
import { roleOfCaller } from './user-roles.ts'

/** The client id of tokens from the login endpoint, as opposed to OAuth apps. */
const FIRST_PARTY_CLIENT = 'first-party'

/** What a user can still do (see `userStandings`). */
export interface UserStanding {
  active: boolean
  scopes: readonly string[]
}

const badCredentials = () => unauthorized('the e-mail or password is incorrect')
const emailTaken = () =>
  AuthErrors.EMAIL_TAKEN('this e-mail is already registered', {
    errors: [{ field: 'email', message: 'is already registered', code: 'taken' }],
  })
const badRefresh = () =>
  unauthorized('the refresh token is invalid, expired or revoked; log in again', {
    'www-authenticate': 'Bearer error="invalid_token"',
  })

/**
 * The e-mail of an org's owner, read through the caller's scope (a worker's org-scoped transaction or read):
 * notices such as a webhook suspension go there.
 */
export function ownerEmailOf(q: Queryable, orgId: string): Promise<string | null> {
  return repo.ownerEmailOf(q, orgId)
}

export function createAuthService(runtime: Runtime) {
  const { database, accessTokens, config } = runtime

  async function issue(
    orgId: string,
    user: UserRow,
    session: { id: string; registerId: string | null },
    refreshToken: string,
  ): Promise<LoginSession> {
    const accessToken = await accessTokens.sign({
      sub: user.id,
      orgId,
      scopes: scopesOfRole(user.role),
      sid: session.id,
      clientId: FIRST_PARTY_CLIENT,
      actorKind: 'user',
      userId: user.id,
      registerId: session.registerId,
    })
    return {
      accessToken,
      refreshToken,
      expiresIn: config.accessTokenTtlS,
      user: { id: user.id, email: user.email, orgId },
    }
  }

  async function newRefreshToken(q: Queryable, orgId: string, sessionId: string): Promise<string> {
    const token = randomToken('ort')
    await repo.insertRefreshToken(q, { hash: sha256Hex(token), orgId, sessionId, ttlSeconds: config.refreshTokenTtlS })
    return token
  }

  const revokeEverywhere = (sessionId: string) => revokeAccessTokens(runtime, [sessionId])

  /**
   * A new session of the user with its first refresh token, in the caller's transaction; a till's names its device.
   * The user's row (and the till's) stay share-locked until commit: a deactivation, a role change or an unpairing
   * committing meanwhile waits, then ends this session too; one that committed first is seen here, and the
   * session takes the user as they are now.
   */
  async function openSession(
    q: Queryable,
    orgId: string,
    userId: string,
    till: { deviceId: string; registerId: string } | null,
  ): Promise<{ id: string; registerId: string | null; refreshToken: string; user: UserRow }> {
    const user = await repo.activeUserShared(q, orgId, userId)
    if (!user) throw badCredentials()
    if (till && !(await devicesRepo.pairedDeviceShared(q, orgId, till.deviceId))) throw badCredentials()
    const id = newId('sess')
    await repo.insertSession(q, {
      id,
      orgId,
      userId: user.id,
      deviceId: till?.deviceId ?? null,
      registerId: till?.registerId ?? null,
    })
    const refreshToken = await newRefreshToken(q, orgId, id)
    return { id, registerId: till?.registerId ?? null, refreshToken, user }
  }

  /** The person behind an e-mail and password; the same 401 for an unknown e-mail as for a wrong password. */
  async function verifiedPerson(email: string, password: string): Promise<PersonRow> {
    const person = await database.unscoped((q) => repo.personByEmail(q, email))
    if (!(await verifyPassword(person?.password_hash, password)) || !person) throw badCredentials()
    return person
  }

  /** The membership a sign-in is for: the org asked for, or the person's only active one. */
  async function membershipFor(personId: string, orgId?: string): Promise<MembershipRow> {
    const active = (await database.unscoped((q) => repo.membershipsOf(q, personId))).filter((m) => m.active)
    if (orgId !== undefined) {
      const chosen = active.find((m) => m.org_id === orgId)
      if (!chosen) throw badCredentials()
      return chosen
    }
    if (active.length === 0) throw badCredentials()
    if (active.length > 1)
      throw AuthErrors.ORG_REQUIRED('this e-mail signs in to several stores: sign in again with org_id', {
        orgs: active.map((m) => ({ id: m.org_id, name: m.org_name })),
      })
    return active[0]!
  }

  /** A new session for a verified person's membership. */
  async function signInAsMember(membership: MembershipRow): Promise<LoginSession> {
    const orgId = membership.org_id
    const session = await database.transaction(orgId, (q) => openSession(q, orgId, membership.user_id, null))
    return issue(orgId, session.user, session, session.refreshToken)
  }

  return {
    /**
     * Creates a user in the caller's transaction (org creation, invitations): a new person with a password (or
     * the hash of one: an invitation hashes before its transaction), or a membership of an existing person.
     */
    async createUser(
      q: Queryable,
      input: { orgId: string; email: string; name?: string; role: Role } & (
        | { password: string }
        | { passwordHash: string }
        | { personId: string }
      ),
    ): Promise<UserRow> {
      const email = input.email.trim()
      if (await repo.userByEmail(q, input.orgId, email)) throw emailTaken()
      let personId: string
      if ('personId' in input) personId = input.personId
      else {
        personId = newId('per')
        const hash = 'passwordHash' in input ? input.passwordHash : await hashPassword(input.password)
        if (!(await repo.insertPerson(q, { id: personId, email, hash }))) throw emailTaken()
      }
      return repo.insertUser(q, {
        id: newId('usr'),
        orgId: input.orgId,
        email,
        name: input.name ?? '',
        role: input.role,
        personId,
      })
    },

    verifiedPerson,
    membershipFor,
    signInAsMember,

    /**
     * Exchanges credentials for a session in one org: the one named, or the person's only store; a person of
     * several stores without org_id gets 409 ORG_REQUIRED listing them. A wrong password, an unknown e-mail and an
     * org the person is not an active member of get the same 401.
     */
    async login(email: string, password: string, orgId?: string): Promise<LoginSession> {
      const person = await verifiedPerson(email, password)
      return signInAsMember(await membershipFor(person.id, orgId))
    },

    /**
     * Rotates a refresh token: each use issues a new one; presenting a used one revokes the whole family
     * (SPEC (docs/decisions.md) "Rules" 1), and of two parallel uses exactly one succeeds (the row lock).
     */
    async refresh(refreshToken: string): Promise<LoginSession> {
      const hash = sha256Hex(refreshToken)
      const orgId = await database.unscoped((q) => repo.orgOfRefreshToken(q, hash))
      if (!orgId) throw badRefresh()
      const outcome = await database.transaction(orgId, async (q) => {
        const row = await repo.lockRefreshToken(q, orgId, hash)
        if (!row || row.expired || row.revoked) return { kind: 'refused' as const }
        if (row.used) {
          await repo.revokeSession(q, orgId, row.session_id, 'refresh token reused')
          return { kind: 'reused' as const, sessionId: row.session_id }
        }
        const user = await repo.userById(q, orgId, row.user_id)
        if (!user || user.deactivated) return { kind: 'refused' as const }
        await repo.markRefreshTokenUsed(q, orgId, hash)
        await repo.touchSession(q, orgId, row.session_id)
        const next = await newRefreshToken(q, orgId, row.session_id)
        return { kind: 'rotated' as const, user, row, next }
      })
      if (outcome.kind === 'reused') {
        await revokeEverywhere(outcome.sessionId)
        throw badRefresh()
      }
      if (outcome.kind === 'refused') throw badRefresh()
      // The scopes of the user's role today, not the session's: a role changed outside the API, or scopes added
      // since the login (users:*, audit:read), apply from the next refresh on.
      const { row } = outcome
      return issue(orgId, outcome.user, { id: row.session_id, registerId: row.register_id }, outcome.next)
    },

    /** Revokes the caller's session: its refresh tokens and, at once on every instance, its access tokens. */
    async logout(ctx: RequestContext): Promise<void> {
      await ctx.db.tx((q) => repo.revokeSession(q, ctx.orgId, ctx.sessionId, 'logout'))
      await revokeEverywhere(ctx.sessionId)
    },

    async me(ctx: RequestContext): Promise<Me> {
      if (!ctx.actor.userId) throw notFound('user')
      const user = await ctx.db.read((q) => repo.userById(q, ctx.orgId, ctx.actor.userId!))
      if (!user) throw notFound('user')
      return {
        id: user.id,
        email: user.email,
        orgId: user.org_id,
        name: user.name,
        role: user.role,
        scopes: [...ctx.scopes],
        registerId: ctx.actor.registerId ?? null,
      }
    },

    revokeSession: revokeEverywhere,

    /** Whether an API session is still open (not signed out or revoked). */
    sessionIsLive: (orgId: string, sessionId: string): Promise<boolean> =>
      database.read(orgId, (q) => repo.sessionIsLive(q, orgId, sessionId)),

    /** Whether the user may still hold a session, locked until the caller's transaction ends (a web sign-in). */
    activeUserShared: async (q: Queryable, orgId: string, userId: string): Promise<boolean> =>
      (await repo.activeUserShared(q, orgId, userId)) !== undefined,

    /** The role the caller acts with (an app's: the user who approved it); `manager` for an app with no user. */
    callerRole: (ctx: RequestContext): Promise<Role> => ctx.db.read((q) => roleOfCaller(q, ctx)),

    /** Signs `user` in on a paired till (a PIN sign-in): a session bound to the device and its register. */
    async signInAtTill(
      orgId: string,
      userId: string,
      till: { deviceId: string; registerId: string },
    ): Promise<LoginSession> {
      const session = await database.transaction(orgId, (q) => openSession(q, orgId, userId, till))
      return issue(orgId, session.user, session, session.refreshToken)
    },

    /**
     * What each user of the org can still do: the scopes of their role today, or none once deactivated. Users
     * not found are absent from the answer.
     */
    async userStandings(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, UserStanding>> {
      const rows = await ctx.db.read((q) => repo.standingsOfUsers(q, ctx.orgId, ids))
      return new Map(rows.map((r) => [r.id, { active: !r.deactivated, scopes: scopesOfRole(r.role) }]))
    },

    /** argon2id, with the module's parameters; slow, so callers hash before opening a transaction. */
    hashPassword,

    /** Where notices to an org go: its owner's e-mail, or null when it has no owner. */
    ownerEmail: (orgId: string): Promise<string | null> => database.read(orgId, (q) => repo.ownerEmailOf(q, orgId)),
  }
}

export type AuthService = ReturnType<typeof createAuthService>
