import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { StalledWork } from '../../platform/queue/stalled-work.ts'
import * as repo from './orders.repo.ts'
import type { RefundsService } from './refunds.service.ts'

/**
 * Refunds whose request ended between reservation and settlement (docs/commerce.md "Refunds"): the processor
 * again under the same references, then the settlement; a refusal releases them (the refund is failed then).
 */
export function stalledRefunds(
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
