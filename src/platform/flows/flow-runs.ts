import type { FastifyBaseLogger } from 'fastify'
import type { Database, Queryable } from '../db/database.ts'
import type { RequestContext } from '../http/context.ts'
import { systemContext } from '../http/system-context.ts'
import type { StalledWork } from '../queue/stalled-work.ts'

/**
 * One run of a flow that calls out (a refund, a lay-by cancellation), recorded from the transaction of its first
 * step to the transaction of its last (docs/architecture.md "Durable flow runs"). `input` is what the flow needs to
 * finish without its request; `steps` the results of the outbound calls made so far. Both are JSON.
 */
export interface FlowRun<Input> {
  readonly flow: string
  readonly key: string
  readonly input: Input
  readonly steps: Record<string, unknown>
  /**
   * When the run began: with its key, which run it is. A run that ended and began again under the same key (a lay-by
   * cancellation refused, then asked again) is another, and a finisher still holding the first touches nothing of it.
   */
  readonly startedAt: string
}

/**
 * Records a run in the caller's transaction, so that it exists exactly when the flow's first step committed. A run
 * already recorded under the key (a request taking over one a crash interrupted) takes the new input and keeps its
 * steps.
 */
export function beginRun<Input>(ctx: RequestContext, flow: string, key: string, input: Input): Promise<FlowRun<Input>> {
  return ctx.db.tx(async (q) => {
    const result = await q.query<{ steps: Record<string, unknown>; started_at: string }>(
      `INSERT INTO flow_runs (org_id, flow, key, input) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, flow, key) DO UPDATE SET input = EXCLUDED.input
       RETURNING steps, created_at::text AS started_at`,
      [ctx.orgId, flow, key, JSON.stringify(input)],
    )
    const [row] = result.rows
    return { flow, key, input, steps: row.steps, startedAt: row.started_at }
  })
}

// The run itself, not another begun under its key since: $1 to $4 of every statement on it.
const THIS_RUN = 'org_id = $1 AND flow = $2 AND key = $3 AND created_at = $4::timestamptz'
const thisRun = (ctx: RequestContext, run: FlowRun<unknown>) => [ctx.orgId, run.flow, run.key, run.startedAt]

/**
 * Runs an outbound step of a run once: a result an earlier attempt recorded is answered instead of calling again,
 * and a new one is recorded before the flow goes on. Called outside any transaction (no outbound call runs in one);
 * the record is a statement of its own.
 */
export async function runStep<T>(ctx: RequestContext, run: FlowRun<unknown>, step: string, call: () => Promise<T>) {
  if (step in run.steps) return run.steps[step] as T
  const result = await call()
  await ctx.db.tx((q) =>
    q.query(`UPDATE flow_runs SET steps = steps || jsonb_build_object($5::text, $6::jsonb) WHERE ${THIS_RUN}`, [
      ...thisRun(ctx, run),
      step,
      JSON.stringify(result),
    ]),
  )
  run.steps[step] = result
  return result
}

/**
 * Ends a run in the transaction of its last step (settled, or released after a refusal): it is done. Answers whether
 * this ended it: false when another finisher already had (then a new run may hold the key, and is not this one's).
 */
export async function endRun(ctx: RequestContext, run: FlowRun<unknown>): Promise<boolean> {
  const ended = await ctx.db.tx((q) => q.query(`DELETE FROM flow_runs WHERE ${THIS_RUN}`, thisRun(ctx, run)))
  return (ended.rowCount ?? 0) > 0
}

/** A run the claimer took, with the org it belongs to. */
export type ClaimedRun = FlowRun<unknown> & { readonly orgId: string }

/**
 * Claims runs of `flows` older than `olderThanS` across orgs (a SECURITY DEFINER function), each for `leaseS`: a
 * run of a flow this process cannot finish (a newer instance's) is left to one that can.
 */
export async function claimStalledRuns(
  q: Queryable,
  flows: readonly string[],
  olderThanS: number,
  leaseS: number,
  batch: number,
): Promise<ClaimedRun[]> {
  const result = await q.query<{
    org_id: string
    flow: string
    key: string
    input: unknown
    steps: Record<string, unknown>
    started_at: string
  }>(
    `SELECT org_id, flow, key, input, steps, started_at
     FROM flow_runs_claim_stalled($1, make_interval(secs => $2), make_interval(secs => $3), $4)`,
    [flows, olderThanS, leaseS, batch],
  )
  return result.rows.map((row) => ({
    orgId: row.org_id,
    flow: row.flow,
    key: row.key,
    input: row.input,
    steps: row.steps,
    startedAt: row.started_at,
  }))
}

/** How the worker finishes a flow's interrupted runs: the scopes it acts with, and the flow's own resume. */
export interface RunFinisher {
  readonly scopes: readonly string[]
  finish(ctx: RequestContext, run: FlowRun<unknown>): Promise<void>
}

/** The one claimer of interrupted runs, for the worker: each run goes to its flow's finisher, in the run's org. */
export function stalledFlowRuns(
  database: Database,
  finishers: Readonly<Record<string, RunFinisher>>,
  log: FastifyBaseLogger,
): StalledWork<ClaimedRun> {
  return {
    name: 'flow run',
    claim: (q, olderThanS, leaseS, batch) => claimStalledRuns(q, Object.keys(finishers), olderThanS, leaseS, batch),
    async finish(run) {
      const finisher = finishers[run.flow]!
      await finisher.finish(systemContext(database, run.orgId, finisher.scopes, log), run)
    },
  }
}
