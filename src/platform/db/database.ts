import pg from 'pg'

/** The one role the application runs as; it is not a superuser and is subject to row-level security. */
export const APP_ROLE = 'opentill_app'

export interface Rows<R> {
  rows: R[]
  rowCount: number | null
}

/** What a repository needs: one query at a time, inside whatever scope the service opened. */
export interface Queryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Rows<R>>
  /** A named (server-side prepared) statement, for the hot paths. */
  prepared<R = Record<string, unknown>>(name: string, text: string, params?: readonly unknown[]): Promise<Rows<R>>
}

class ClientQueryable implements Queryable {
  constructor(
    readonly client: pg.PoolClient,
    private readonly sharedSession: boolean,
  ) {}
  query<R>(text: string, params: readonly unknown[] = []): Promise<Rows<R>> {
    return this.client.query(text, params as unknown[]) as unknown as Promise<Rows<R>>
  }
  prepared<R>(name: string, text: string, params: readonly unknown[] = []): Promise<Rows<R>> {
    // Prepared statements live in the session; PGlite's one session is shared by every client, whose
    // bookkeeping of what it prepared would disagree, so there each statement is parsed afresh.
    if (this.sharedSession) return this.query(text, params)
    return this.client.query({ name, text, values: params as unknown[] }) as unknown as Promise<Rows<R>>
  }
}

const ORG_ID = /^org_[0-9A-Za-z]{1,64}$/

/** The org a session-level setting pins on a server connection, so steady-state reads need one round trip. */
const pinnedOrg = new WeakMap<pg.PoolClient, string>()

export interface DatabaseOptions {
  connectionString: string
  max: number
  /** PGlite shares one session between connections, so nothing may be pinned per connection there. */
  sharedSession: boolean
}

/**
 * The pool and the only ways to reach data: every scope sets `app.org_id`, which the row-level security
 * policies of every table compare with `org_id`. A query that forgot its org filter still sees nothing else.
 */
export class Database {
  readonly pool: pg.Pool
  readonly sharedSession: boolean

  constructor(options: DatabaseOptions) {
    this.sharedSession = options.sharedSession
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max,
      idleTimeoutMillis: 30_000,
      // A server applies the role at connection start and refuses the connection if it cannot.
      options: options.sharedSession ? undefined : `-c role=${APP_ROLE}`,
      // PGlite ignores startup options: each new connection takes the role before it is handed out, and a
      // connection that cannot is closed rather than used as the owner.
      ...(options.sharedSession ? { onConnect: (client: pg.PoolClient) => client.query(`SET ROLE ${APP_ROLE}`) } : {}),
    } as pg.PoolConfig)
    // An idle client that loses its connection must not take the process down.
    this.pool.on('error', () => {})
  }

  /** Runs `fn` in one transaction scoped to `orgId`. */
  async transaction<T>(orgId: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      const q = await this.begin(client, orgId)
      const result = await fn(q)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      client.release()
    }
  }

  /**
   * Reads for `orgId` without an explicit transaction where the engine allows it: on a server the org is
   * pinned to the connection with a session setting and re-set only when the next checkout is for another org.
   */
  async read<T>(orgId: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
    if (this.sharedSession) return this.transaction(orgId, fn)
    assertOrgId(orgId)
    const client = await this.pool.connect()
    try {
      if (pinnedOrg.get(client) !== orgId) {
        pinnedOrg.delete(client)
        await client.query('SELECT set_config($1, $2, false)', ['app.org_id', orgId])
        pinnedOrg.set(client, orgId)
      }
      return await fn(new ClientQueryable(client, this.sharedSession))
    } finally {
      client.release()
    }
  }

  /** Opens a transaction on a checked-out client and scopes it to `orgId` in the same round trip. */
  async begin(client: pg.PoolClient, orgId: string): Promise<Queryable> {
    assertOrgId(orgId)
    await client.query(`BEGIN; SELECT set_config('app.org_id', ${client.escapeLiteral(orgId)}, true)`)
    return new ClientQueryable(client, this.sharedSession)
  }

  /** Work that belongs to no org (signing keys, migrations bookkeeping); row-level security still applies. */
  async unscoped<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      await client.query('BEGIN')
      const result = await fn(new ClientQueryable(client, this.sharedSession))
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      client.release()
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1')
  }

  async close(): Promise<void> {
    await this.pool.end()
  }
}

function assertOrgId(orgId: string): void {
  if (!ORG_ID.test(orgId)) throw new Error('invalid org id for a database scope')
}
