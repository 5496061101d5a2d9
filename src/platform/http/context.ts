import type { FastifyBaseLogger } from 'fastify'
import type { CommitNow, Queryable } from '../db/database.ts'

export type Role = 'owner' | 'manager' | 'staff'

interface Actor {
  kind: 'user' | 'app'
  /** The user behind the call, for login tokens and merchant-approved app grants. */
  userId: string | null
  /** The OAuth client for app tokens, `first-party` for login tokens. */
  clientId: string
  /** The till's register, for a session opened there with a PIN (docs/people-and-settings.md). */
  registerId?: string | null
}

/** What a request may touch: its org's data, through the scopes of its credential. */
export interface OrgDb {
  /** Reads scoped to the org (one round trip in the steady state). */
  read<T>(fn: (q: Queryable) => Promise<T>): Promise<T>
  /**
   * One transaction scoped to the org; a call made inside another transaction of the org joins it.
   * `commitNow` is given to the call that opened the transaction and null to one that joined it.
   */
  tx<T>(fn: (q: Queryable, commitNow: CommitNow | null) => Promise<T>): Promise<T>
}

/** Vendure's RequestContext: passed first to every service function. */
export interface RequestContext {
  readonly orgId: string
  readonly actor: Actor
  readonly scopes: ReadonlySet<string>
  readonly sessionId: string
  readonly requestId: string
  readonly log: FastifyBaseLogger
  readonly db: OrgDb
  /**
   * The org's catalog version when the request was admitted (platform/cache): data that only catalog and tax
   * writes change may be kept in memory under it. Null when nothing may be kept (no shared version to key by).
   */
  readonly catalogVersion: string | null
  /** When the request's access token expires (Unix seconds); absent for work no token started. */
  readonly credentialExpiresAt?: number
  /**
   * Runs an outbound step (a processor's authorization) once per Idempotency-Key: its result is recorded before
   * anything else can fail, and a retry of the request gets it back instead of calling again. Results must be
   * JSON. Absent outside requests that carry a key; call it through `once`.
   */
  readonly once?: <T>(step: string, fn: () => Promise<T>) => Promise<T>
  /** Forgets steps whose work was undone, so that a retry runs them anew; call it through `forget`. */
  readonly forget?: (steps: readonly string[]) => Promise<void>
}

/** Who acted, as one id for a record's `actor`: the user behind the call, else the app (its OAuth client id). */
export function actorOf(ctx: RequestContext): string {
  return ctx.actor.userId ?? ctx.actor.clientId
}

/** `ctx.once` where the request carries an Idempotency-Key; the call itself otherwise. */
export function once<T>(ctx: RequestContext, step: string, fn: () => Promise<T>): Promise<T> {
  return ctx.once ? ctx.once(step, fn) : fn()
}

/** `ctx.forget` where the request carries an Idempotency-Key: steps undone are run anew by a retry. */
export async function forget(ctx: RequestContext, ...steps: string[]): Promise<void> {
  await ctx.forget?.(steps)
}
