import { AsyncLocalStorage } from 'node:async_hooks'
import type { OrgDb } from '../http/context.ts'
import type { Database, Queryable } from './database.ts'

const openTransaction = new AsyncLocalStorage<{ orgId: string; q: Queryable }>()

/**
 * An org's view of the database. A call made while a transaction of the same org is open (a service calling
 * another domain's service inside its transaction) joins that transaction instead of taking a second
 * connection: it sees the uncommitted writes and commits with them. `beforeWork` gives a statement to run first
 * in each transaction opened (an idempotent request marks that its work committed something).
 */
export function orgDb(
  database: Database,
  orgId: string,
  beforeWork?: () => ((q: Queryable) => Promise<unknown>) | undefined,
): OrgDb {
  const joinable = (): Queryable | undefined => {
    const open = openTransaction.getStore()
    return open && open.orgId === orgId ? open.q : undefined
  }
  // The reads in flight share one connection, taken at the first and given back after the last: however many reads
  // a request sends at once (a calculate's checks, a page's lookups), it holds one connection, pipelined, so fifty
  // clients need fifty connections at most and the pool's queue stays short of load shedding.
  let shared: { lease: ReturnType<Database['readLease']>; reads: number } | null = null
  async function sharedRead<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const current = shared ?? { lease: database.readLease(orgId), reads: 0 }
    shared = current
    current.reads++
    try {
      return await fn((await current.lease).q)
    } finally {
      current.reads--
      if (current.reads === 0) {
        if (shared === current) shared = null
        current.lease.then(
          (lease) => lease.release(),
          () => {},
        )
      }
    }
  }
  return {
    read(fn) {
      const q = joinable()
      return q ? fn(q) : sharedRead(fn)
    },
    tx(fn) {
      const q = joinable()
      // A joined transaction is committed by whoever opened it.
      if (q) return fn(q, null)
      return database.transaction(orgId, async (txq, commitNow) => {
        // Sent first and awaited last: it commits exactly when the transaction's work does.
        const marking = beforeWork?.()?.(txq)
        marking?.catch(() => {})
        const result = await openTransaction.run({ orgId, q: txq }, () => fn(txq, commitNow))
        await marking
        return result
      })
    },
  }
}

/**
 * Runs `fn` with the open transaction `q` scoped to another org, then scopes it back: for the rare use case that
 * writes into two orgs atomically (a partner provisioning a tenant), which two transactions could not.
 */
export async function withOrgScope<T>(q: Queryable, orgId: string, fn: () => Promise<T>): Promise<T> {
  const result = await q.query<{ previous: string | null }>(
    "SELECT current_setting('app.org_id', true) AS previous, set_config('app.org_id', $1, true)",
    [orgId],
  )
  try {
    return await fn()
  } finally {
    await q.query("SELECT set_config('app.org_id', $1, true)", [result.rows[0].previous ?? ''])
  }
}

/**
 * Runs `fn` so that org-scoped calls of `orgId` inside it join `q`, an open transaction the caller has scoped to
 * that org (a worker's claim, which reads every org's queue and then works in each org's scope in turn).
 */
export function joiningTransaction<T>(q: Queryable, orgId: string, fn: () => Promise<T>): Promise<T> {
  return openTransaction.run({ orgId, q }, fn)
}
