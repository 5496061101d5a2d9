import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import { type Poller, startPoller } from '../../platform/queue/poller.ts'
import * as repo from './orders.repo.ts'
import type { RefundsService } from './refunds.service.ts'

const INTERVAL_MS = 60_000
const BATCH = 50
/** Longer than any request runs (processor calls time out well before), so a live request is never overtaken. */
const STALLED_AFTER_S = 600
/** A worker that dies while finishing one gives it to another after this. */
const LEASE_S = 300

/**
 * Finishes refunds whose request ended between reservation and settlement (docs/commerce.md "Refunds"): the
 * processor again under the same references, then the settlement; a refusal releases them. Answers how many.
 */
export async function finishStalledRefunds(
  database: Database,
  refunds: RefundsService,
  log: FastifyBaseLogger,
  olderThanS = STALLED_AFTER_S,
): Promise<number> {
  const claimed = await database.unscoped((q) => repo.claimStalledRefunds(q, olderThanS, LEASE_S, BATCH))
  for (const { org_id: orgId, refund_id: refundId } of claimed) {
    try {
      await refunds.resumeStalled(systemContext(database, orgId, ['orders:write'], log), refundId)
    } catch (error) {
      // A refusal has released the refund (it is failed now); anything else is tried again after the lease.
      log.warn({ err: error, orgId, refundId }, 'a stalled refund could not be finished')
    }
  }
  return claimed.length
}

export function startStalledRefunds(database: Database, refunds: RefundsService, log: FastifyBaseLogger): Poller {
  return startPoller({
    intervalMs: INTERVAL_MS,
    async tick() {
      const finished = await finishStalledRefunds(database, refunds, log)
      if (finished > 0) log.info({ refunds: finished }, 'stalled refunds finished')
      return finished === BATCH
    },
    onError: (error) => log.error({ err: error }, 'finishing stalled refunds failed'),
  })
}
