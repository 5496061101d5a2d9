import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { StalledWork } from '../../platform/queue/stalled-work.ts'
import * as repo from './payments.repo.ts'
import type { PaymentsService } from './payments.service.ts'

/**
 * Cards tills took offline, authorized after their sale was synced (docs/sync.md): each pending card once, leased so
 * two workers never take the same one; a decline is handed to `declined` (the sync conflict) with its order.
 */
export function pendingCardAuthorizations(
  database: Database,
  payments: Pick<PaymentsService, 'authorizeOffline'>,
  declined: (ctx: RequestContext, orderId: string, why: string) => Promise<void>,
  maxAgeMs: number,
  log: FastifyBaseLogger,
): StalledWork<{ org_id: string; payment_id: string }> {
  return {
    name: 'offline card',
    claim: repo.claimPendingCards,
    async finish({ org_id: orgId, payment_id: paymentId }) {
      const ctx = systemContext(database, orgId, ['payments:write'], log)
      const outcome = await payments.authorizeOffline(ctx, paymentId, maxAgeMs)
      if (outcome?.declined && outcome.orderId) await declined(ctx, outcome.orderId, outcome.declined)
    },
  }
}
