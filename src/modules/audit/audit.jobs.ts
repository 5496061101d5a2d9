import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import * as repo from './audit.repo.ts'

const PURGE_BATCH = 5_000

/** Deletes audit entries older than `retentionDays` (AUDIT_RETENTION_DAYS), a batch at a time. */
export function startAuditRetention(database: Database, retentionDays: number, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: 60 * 60_000,
    async tick() {
      const purged = await database.unscoped((q) => repo.purgeOlderThan(q, retentionDays, PURGE_BATCH))
      if (purged > 0) log.info({ purged }, 'audit entries past their retention deleted')
      return purged === PURGE_BATCH
    },
    onError: (error) => log.error({ err: error }, 'audit log retention failed'),
  })
}
