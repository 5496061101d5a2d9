import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { StalledWork } from '../../platform/queue/stalled-work.ts'
import * as repo from './orders.repo.ts'

/**
 * Refunds whose request ended between reservation and settlement (docs/commerce.md "Refunds"): the processor
 * again under the same references, then the settlement; a refusal releases them (the refund is failed then).
 */
export function stalledRefunds(
  database: Database,
  /** The refund flow (flows/refund.ts), which finishes one. */
  refunds: { resumeStalled(ctx: RequestContext, refundId: string): Promise<void> },
  log: FastifyBaseLogger,
): StalledWork<{ org_id: string; refund_id: string }> {
  return {
    name: 'refund',
    claim: repo.claimStalledRefunds,
    finish: ({ org_id: orgId, refund_id: refundId }) =>
      refunds.resumeStalled(systemContext(database, orgId, ['orders:write'], log), refundId),
  }
}
