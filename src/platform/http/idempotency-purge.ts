import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/database.ts'
import { type Poller, startPoller } from '../queue/poller.ts'
import { purgeExpiredKeys } from './idempotency-store.ts'

const BATCH = 10_000

/**
 * Idempotency keys answer for 24 hours: every ten minutes the older ones are deleted, a batch at a time until none
 * is left. Several workers may run it: batches only shrink.
 */
export function startIdempotencyPurge(database: Database, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: 10 * 60_000,
    async tick() {
      const purged = await purgeExpiredKeys(database)
      if (purged > 0) log.info({ purged }, 'expired idempotency keys deleted')
      return purged === BATCH
    },
    onError: (error) => log.error({ err: error }, 'idempotency key purge failed'),
  })
}
