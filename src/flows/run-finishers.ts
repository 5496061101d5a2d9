import type { FlowRun, RunFinisher } from '../platform/flows/flow-runs.ts'
import type { RequestContext } from '../platform/http/context.ts'
import { CANCELLATION_FLOW, type CancellationRunInput } from './layby.ts'
import { REFUND_FLOW, type RefundRunInput } from './refund.ts'

/**
 * Who finishes each flow's runs a crash interrupted (the worker's one claimer, platform/flows/flow-runs.ts), with
 * the scopes the finish acts with. A run's input is what its flow recorded when it began it.
 */
export function runFinishers(flows: {
  refund: { resume(ctx: RequestContext, run: FlowRun<RefundRunInput>): Promise<void> }
  laybys: { resumeCancellation(ctx: RequestContext, run: FlowRun<CancellationRunInput>): Promise<void> }
}): Record<string, RunFinisher> {
  return {
    [REFUND_FLOW]: {
      scopes: ['orders:write'],
      finish: (ctx, run) => flows.refund.resume(ctx, run as FlowRun<RefundRunInput>),
    },
    [CANCELLATION_FLOW]: {
      scopes: ['orders:write'],
      finish: (ctx, run) => flows.laybys.resumeCancellation(ctx, run as FlowRun<CancellationRunInput>),
    },
  }
}
