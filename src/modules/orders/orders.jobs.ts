import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import { finishStalled, type StalledWork, startStalledWork } from '../../platform/queue/stalled-work.ts'
import * as repo from './orders.repo.ts'
import type { RefundsService } from './refunds.service.ts'

/**
 * Refunds whose request ended between reservation and settlement (docs/commerce.md "Refunds"): the processor
 * again under the same references, then the settlement; a refusal releases them (the refund is failed then).
 */
function stalledRefunds(
  database: Database,
  refunds: RefundsService,
  log: FastifyBaseLogger,
): StalledWork<{ org_id: string; refund_id: string }> {
  return {
    name: 'refund',
    claim: repo.claimStalledRefunds,
    finish: ({ org_id: orgId, refund_id: refundId }) =>
      refunds.resumeStalled(systemContext(database, orgId, ['orders:write'], log), refundId),
  }
}

/** One batch now (tests): answers how many were claimed. */
export const finishStalledRefunds = (
  database: Database,
  refunds: RefundsService,
  log: FastifyBaseLogger,
  olderThanS?: number,
) => finishStalled(database, stalledRefunds(database, refunds, log), log, olderThanS)

export const startStalledRefunds = (database: Database, refunds: RefundsService, log: FastifyBaseLogger) =>
  startStalledWork(database, stalledRefunds(database, refunds, log), log)
