import type { FastifyBaseLogger } from 'fastify'
import type { Database, Queryable } from '../db/database.ts'
import { type Poller, startPoller } from './poller.ts'

const INTERVAL_MS = 60_000
const BATCH = 50
/** Longer than any request runs (processor calls time out well before), so a live request is never overtaken. */
const STALLED_AFTER_S = 600
/** A worker that dies while finishing one gives it to another after this. */
const LEASE_S = 300

/**
 * Work a request left half-done between its steps (a crash, a lost answer: a refund reserved but not settled, a
 * lay-by left `cancelling`), which a worker finishes once no request can still be running it.
 */
export interface StalledWork<T> {
  /** What it is, for the logs: `refund`. */
  readonly name: string
  /** Claims a batch across orgs (a SECURITY DEFINER function): items older than `olderThanS`, each for `leaseS`. */
  claim(q: Queryable, olderThanS: number, leaseS: number, batch: number): Promise<T[]>
  /** Finishes one; what throws is logged and tried again once its lease has run out. */
  finish(item: T): Promise<void>
}

/** Claims and finishes one batch; answers how many were claimed. */
export async function finishStalled<T>(
  database: Database,
  work: StalledWork<T>,
  log: FastifyBaseLogger,
  olderThanS = STALLED_AFTER_S,
): Promise<number> {
  const claimed = await database.unscoped((q) => work.claim(q, olderThanS, LEASE_S, BATCH))
  for (const item of claimed) {
    try {
      await work.finish(item)
    } catch (error) {
      log.warn({ err: error, item }, `a stalled ${work.name} could not be finished`)
    }
  }
  return claimed.length
}

/** Polls for `work` every minute, for items older than a request runs; `options` for work that is due at once. */
export function startStalledWork<T>(
  database: Database,
  work: StalledWork<T>,
  log: FastifyBaseLogger,
  options: { intervalMs?: number; olderThanS?: number } = {},
): Poller {
  return startPoller({
    intervalMs: options.intervalMs ?? INTERVAL_MS,
    async tick() {
      const finished = await finishStalled(database, work, log, options.olderThanS)
      if (finished > 0) log.info({ finished }, `stalled ${work.name}s finished`)
      return finished === BATCH
    },
    onError: (error) => log.error({ err: error }, `finishing stalled ${work.name}s failed`),
  })
}
