import type { FastifyBaseLogger } from 'fastify'
import { firstIdAt } from '../../platform/crypto/ids.ts'
import type { Database } from '../../platform/db/database.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import * as repo from './events.repo.ts'

const DAY_MS = 86_400_000
/** Small enough that each delete is a short transaction, large enough to keep up with a busy day. */
const PURGE_BATCH = 5_000

/** Deletes one batch of the events past their retention; answers how many went. */
export function purgeExpiredEvents(
  database: Database,
  retentionDays: number,
  nowMs = Date.now(),
  batch = PURGE_BATCH,
): Promise<number> {
  const beforeId = firstIdAt('evt', nowMs - retentionDays * DAY_MS)
  return database.unscoped((q) => repo.purgeExpired(q, beforeId, retentionDays, batch))
}

/**
 * The retention job: every ten minutes, events older than the events API serves are deleted, a batch at a time
 * until none is left, so the outbox does not grow for ever. Several workers may run it: batches only shrink.
 */
export function startEventRetention(database: Database, retentionDays: number, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: 10 * 60_000,
    async tick() {
      const purged = await purgeExpiredEvents(database, retentionDays)
      if (purged > 0) log.info({ purged }, 'expired events deleted')
      return purged === PURGE_BATCH
    },
    onError: (error) => log.error({ err: error }, 'event retention failed'),
  })
}
