import type { Database, Queryable } from '../db/database.ts'

/**
 * A request's run (docs/architecture.md "Durable flow runs"): the outbound steps of a request that carries an
 * Idempotency-Key (`ctx.once`, platform/http/idempotency-store.ts), in `flow_runs` under the flow `request`, keyed by
 * the caller and the key. It has no finisher (the claimer never takes it): the client's retry resumes it, and it goes
 * with its key (forgotten, or purged after its 24 hours). Written at its first step, so that a keyed request that
 * calls nothing out costs nothing here.
 */
const REQUEST_FLOW = 'request'
// The caller and the key as one unambiguous text (both are free text), computed by PostgreSQL everywhere.
const REQUEST_RUN = `org_id = $1 AND flow = '${REQUEST_FLOW}' AND key = jsonb_build_array($2::text, $3::text)::text`

/** Which request a run belongs to: the org, the caller (client and user) and the Idempotency-Key. */
interface RequestRef {
  readonly orgId: string
  readonly scope: string
  readonly key: string
}

/**
 * A request's run as its attempt holds it: the steps recorded so far. Its row exists exactly while it holds a step
 * (written at the first, deleted when the last is forgotten), so a request with none costs no statement of it.
 */
export interface RequestRun extends RequestRef {
  steps: Record<string, unknown>
}

/** Whether the run's row exists: it has steps. */
export const hasSteps = (run: RequestRun): boolean => Object.keys(run.steps).length > 0

const refParams = (ref: RequestRef) => [ref.orgId, ref.scope, ref.key]

/**
 * `ctx.once`: runs an outbound step once per Idempotency-Key, as a step of the request's run. A result an earlier
 * attempt recorded is returned instead of running it again; a new one is recorded durably before the request goes
 * on. Without a key, the step just runs.
 */
export async function runRequestStep<T>(
  database: Database,
  run: RequestRun | undefined,
  step: string,
  call: () => Promise<T>,
): Promise<T> {
  if (!run) return call()
  if (step in run.steps) return run.steps[step] as T
  const value = await call()
  await database.transaction(run.orgId, (q) => recordRequestStep(q, run, step, value))
  run.steps[step] = value
  return value
}

/**
 * `ctx.forget`: forgets steps of a request's run once what they did was undone (an authorization given back), so
 * that a retry runs them anew instead of resuming what no longer holds.
 */
export async function forgetRequestSteps(
  database: Database,
  run: RequestRun | undefined,
  steps: readonly string[],
): Promise<void> {
  if (!run || !steps.some((step) => step in run.steps)) return
  for (const step of steps) delete run.steps[step]
  await database.transaction(run.orgId, async (q) => {
    if (!hasSteps(run)) return endRequestRun(q, run)
    await q.query(`UPDATE flow_runs SET steps = steps - $4::text[] WHERE ${REQUEST_RUN}`, [...refParams(run), steps])
  })
}

/** The steps a request's earlier attempts recorded. */
export async function requestSteps(q: Queryable, ref: RequestRef): Promise<Record<string, unknown>> {
  const result = await q.query<{ steps: Record<string, unknown> }>(
    `SELECT steps FROM flow_runs WHERE ${REQUEST_RUN}`,
    refParams(ref),
  )
  return result.rows[0]?.steps ?? {}
}

/** Records a request's step, starting its run at the first. */
async function recordRequestStep(q: Queryable, ref: RequestRef, step: string, value: unknown): Promise<void> {
  await q.query(
    `INSERT INTO flow_runs (org_id, flow, key, input, steps)
     VALUES ($1, '${REQUEST_FLOW}', jsonb_build_array($2::text, $3::text)::text, '{}', jsonb_build_object($4::text, $5::jsonb))
     ON CONFLICT (org_id, flow, key) DO UPDATE SET steps = flow_runs.steps || EXCLUDED.steps`,
    [...refParams(ref), step, JSON.stringify(value ?? null)],
  )
}

/** Ends a request's run with its key. */
export async function endRequestRun(q: Queryable, ref: RequestRef): Promise<void> {
  await q.query(`DELETE FROM flow_runs WHERE ${REQUEST_RUN}`, refParams(ref))
}
