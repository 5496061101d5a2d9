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

/** The socket under a pg client (pg's Connection keeps it as `stream`). */
type CorkableStream = { cork(): void; uncork(): void }

const corked = new WeakSet<CorkableStream>()

/**
 * Holds a pipelined connection's writes until the current burst of promise callbacks has run, so the statements
 * a unit of work issues together (Promise.all) leave in one write system call, not one each: on loopback TCP the
 * call, not the bytes, is what costs. pg corks and uncorks per statement; the outer cork makes those a no-op.
 */
function coalesceWrites(client: pg.PoolClient): void {
  const stream = (client as unknown as { connection: { stream: CorkableStream } }).connection.stream
  if (corked.has(stream)) return
  corked.add(stream)
  stream.cork()
  process.nextTick(() => {
    corked.delete(stream)
    stream.uncork()
  })
}

class ClientQueryable implements Queryable {
  /** Set once COMMIT has been sent ahead of the answers (commitNow): a later statement would run outside. */
  committed = false
  constructor(readonly client: pg.PoolClient) {}
  query<R>(text: string, params: readonly unknown[] = []): Promise<Rows<R>> {
    this.assertOpen()
    return this.send({ text, values: params as unknown[] }) as unknown as Promise<Rows<R>>
  }
  prepared<R>(name: string, text: string, params: readonly unknown[] = []): Promise<Rows<R>> {
    this.assertOpen()
    return this.send({ name, text, values: params as unknown[] }) as unknown as Promise<Rows<R>>
  }
  /** Sends a statement at once: the connection is pipelined, and the socket corked until the burst is out. */
  send(config: pg.QueryConfig): Promise<pg.QueryResult> {
    coalesceWrites(this.client)
    return this.client.query(config)
  }
  private assertOpen(): void {
    if (this.committed) throw new Error('a statement was issued after its transaction sent COMMIT')
  }
}

/**
 * Sends COMMIT behind the statements a transaction has already issued, without waiting for their answers: the
 * server runs them in order, so the row locks they take are released as soon as they are done instead of one
 * client round trip later. If any of them fails, the server turns the COMMIT into a ROLLBACK.
 */
export type CommitNow = () => void

const ORG_ID = /^org_[0-9A-Za-z]{1,64}$/

/** The org a session-level setting pins on a server connection, so steady-state reads need one round trip. */
const pinnedOrg = new WeakMap<pg.PoolClient, string>()

interface DatabaseOptions {
  connectionString: string
  max: number
  /**
   * Limits the server applies to each of the pool's sessions (docs/operations.md "Database timeouts"): a statement
   * running longer is cancelled, and a session idle inside a transaction longer is ended with its locks released.
   */
  statementTimeoutMs?: number
  idleInTransactionTimeoutMs?: number
}

/**
 * The pool and the only ways to reach data: every scope sets `app.org_id`, which the row-level security
 * policies of every table compare with `org_id`. A query that forgot its org filter still sees nothing else.
 */
export class Database {
  // Private: every statement goes through a scope, a transaction or statement(), so none forgets its role.
  private readonly pool: pg.Pool

  constructor(options: DatabaseOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max,
      idleTimeoutMillis: 30_000,
      // The server applies the role at connection start and refuses the connection if it cannot.
      options: [
        `-c role=${APP_ROLE}`,
        ...(options.statementTimeoutMs ? [`-c statement_timeout=${options.statementTimeoutMs}`] : []),
        ...(options.idleInTransactionTimeoutMs
          ? [`-c idle_in_transaction_session_timeout=${options.idleInTransactionTimeoutMs}`]
          : []),
      ].join(' '),
      // Queries issued together (Promise.all) go out without waiting for each other's answers: one round trip
      // for a group of reads or writes.
      pipeline: true,
    } as pg.PoolConfig)
    // An idle client that loses its connection must not take the process down.
    this.pool.on('error', () => {})
  }

  /**
   * A pooled connection, guarded while we hold it: pg emits 'error' on a client whose server goes away (a
   * restart, a failover), and with no listener that would end the process. The work using it fails on its own;
   * the connection is given back broken, so the pool discards it.
   */
  private async checkout(): Promise<{ client: pg.PoolClient; release: () => void }> {
    const client = await this.pool.connect()
    let lost: Error | undefined
    const onError = (error: Error) => {
      lost = error
    }
    client.on('error', onError)
    return {
      client,
      release() {
        client.removeListener('error', onError)
        client.release(lost)
      },
    }
  }

  /**
   * Runs `fn` in one transaction scoped to `orgId`. On a pipelined connection `BEGIN` is not waited for: it
   * leaves with the first statements of `fn` and the server runs them in order. It can only fail with the
   * connection, and then so does everything behind it; nothing commits before its answer is checked.
   */
  async transaction<T>(orgId: string, fn: (q: Queryable, commitNow: CommitNow) => Promise<T>): Promise<T> {
    assertOrgId(orgId)
    const { client, release } = await this.checkout()
    try {
      let committing: Promise<pg.QueryResult> | undefined
      const began = this.begin(client, orgId)
      began.catch(() => {})
      const q = new ClientQueryable(client)
      const commitNow = () => {
        if (committing) return
        committing = q.send({ text: 'COMMIT' })
        committing.catch(() => {})
        q.committed = true
      }
      const result = await fn(q, commitNow)
      await began
      // A COMMIT in a transaction that a failed statement aborted answers ROLLBACK instead of an error.
      if ((await (committing ?? client.query('COMMIT'))).command === 'ROLLBACK') {
        throw new Error('the transaction was rolled back at COMMIT')
      }
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      release()
    }
  }

  /**
   * Reads for `orgId` without an explicit transaction: the org is pinned to the connection with a session
   * setting and re-set only when the next checkout is for another org.
   */
  async read<T>(orgId: string, fn: (q: Queryable) => Promise<T>): Promise<T> {
    const { q, release } = await this.readLease(orgId)
    try {
      return await fn(q)
    } finally {
      release()
    }
  }

  /**
   * A connection for `orgId`'s reads until released, pinned to the org as `read` pins it: the reads a request sends
   * at once share it (org-db), pipelined, instead of each taking a connection of its own.
   */
  async readLease(orgId: string): Promise<{ q: Queryable; release: () => void }> {
    assertOrgId(orgId)
    const { client, release } = await this.checkout()
    try {
      if (pinnedOrg.get(client) !== orgId) {
        pinnedOrg.delete(client)
        await client.query('SELECT set_config($1, $2, false)', ['app.org_id', orgId])
        pinnedOrg.set(client, orgId)
      }
    } catch (error) {
      release()
      throw error
    }
    return { q: new ClientQueryable(client), release }
  }

  /**
   * Opens a transaction on a checked-out client and scopes it to `orgId` in the same round trip: `BEGIN` and a
   * prepared scope statement, pipelined (no statement to parse per transaction).
   */
  private async begin(client: pg.PoolClient, orgId: string): Promise<ClientQueryable> {
    assertOrgId(orgId)
    coalesceWrites(client)
    await Promise.all([
      client.query('BEGIN'),
      client.query({ name: 'org_scope', text: "SELECT set_config('app.org_id', $1, true)", values: [orgId] }),
    ])
    return new ClientQueryable(client)
  }

  /** Work that belongs to no org (signing keys, migrations bookkeeping); row-level security still applies. */
  async unscoped<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const { client, release } = await this.checkout()
    try {
      await client.query('BEGIN')
      const result = await fn(new ClientQueryable(client))
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      throw error
    } finally {
      release()
    }
  }

  /**
   * One statement that belongs to no org (revocations, maintenance); `preparedAs` names it as a prepared statement
   * (a hot path), as Queryable.prepared does.
   */
  async statement<R = Record<string, unknown>>(
    text: string,
    params: readonly unknown[] = [],
    preparedAs?: string,
  ): Promise<Rows<R>> {
    const config = { name: preparedAs, text, values: params as unknown[] }
    return (await this.pool.query(config)) as unknown as Rows<R>
  }

  /** The pool's connections in use and idle, and the checkouts waiting for one (metrics, load shedding). */
  poolStats(): { inUse: number; idle: number; waiting: number } {
    return {
      inUse: this.pool.totalCount - this.pool.idleCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
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
