import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { systemContext } from '../../platform/http/system-context.ts'
import type { StalledWork } from '../../platform/queue/stalled-work.ts'
import * as repo from './laybys.repo.ts'

/**
 * Lay-by cancellations whose request ended between their steps (docs/commerce.md "Lay-bys"): the processor again
 * under the lay-by's reference, then the settlement; a refusal opens the lay-by again.
 */
export function stalledCancellations(
  database: Database,
  /** The lay-by flows (flows/layby.ts), which finish a cancellation. */
  laybys: { resumeStalledCancel(ctx: RequestContext, id: string): Promise<void> },
  log: FastifyBaseLogger,
): StalledWork<{ org_id: string; layby_id: string }> {
  return {
    name: 'lay-by cancellation',
    claim: repo.claimStalledCancellations,
    finish: ({ org_id: orgId, layby_id: laybyId }) =>
      laybys.resumeStalledCancel(systemContext(database, orgId, ['orders:write'], log), laybyId),
  }
}
