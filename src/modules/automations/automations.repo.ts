import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import type { AuthorColumns } from './authors.ts'
import {
  type AutomationRow,
  automationColumns,
  type ClaimedRunRow,
  type ClaimedTriggerRow,
  type OutboxEventRow,
  type RunRow,
  runColumns,
  type ScheduleRuleRow,
  type StepRow,
  stepColumns,
} from './automations.tables.ts'

interface AutomationWrite {
  author?: AuthorColumns
  name?: string
  enabled?: boolean
  triggerType?: AutomationRow['trigger_type']
  triggerEvent?: string | null
  trigger?: unknown
  conditions?: unknown
  actions?: unknown
}

const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value))

export async function insertAutomation(
  q: Queryable,
  orgId: string,
  id: string,
  w: Required<AutomationWrite>,
): Promise<AutomationRow> {
  const result = await q.query<AutomationRow>(
    `INSERT INTO automations (org_id, id, name, enabled, trigger_type, trigger_event, trigger, conditions, actions,
       author_user_id, author_client_id, author_grant_id, author_scopes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${automationColumns}`,
    [
      orgId,
      id,
      w.name,
      w.enabled,
      w.triggerType,
      w.triggerEvent,
      json(w.trigger),
      json(w.conditions),
      json(w.actions),
      w.author.author_user_id,
      w.author.author_client_id,
      w.author.author_grant_id,
      w.author.author_scopes,
    ],
  )
  return result.rows[0]
}

export async function automationById(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
): Promise<AutomationRow | undefined> {
  const result = await q.query<AutomationRow>(
    `SELECT ${automationColumns} FROM automations WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function listAutomations(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; limit: number },
): Promise<AutomationRow[]> {
  const result = await q.query<AutomationRow>(
    `SELECT ${automationColumns} FROM automations WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    [orgId, f.afterId ?? null, f.limit],
  )
  return result.rows
}

export async function updateAutomation(
  q: Queryable,
  orgId: string,
  id: string,
  w: AutomationWrite,
  expectedVersion: number | undefined,
): Promise<AutomationRow | undefined> {
  return updateVersioned<AutomationRow>(
    q,
    'automations',
    automationColumns,
    orgId,
    id,
    {
      name: w.name,
      enabled: w.enabled,
      trigger_type: w.triggerType,
      trigger_event: w.triggerEvent,
      trigger: json(w.trigger),
      conditions: json(w.conditions),
      actions: json(w.actions),
      ...w.author,
      // A changed trigger starts its schedule afresh from the next tick.
      schedule_cursor: w.trigger === undefined ? undefined : null,
    },
    expectedVersion,
  )
}

export async function countAutomations(q: Queryable, orgId: string): Promise<number> {
  const result = await q.query<{ n: string }>('SELECT count(*) AS n FROM automations WHERE org_id = $1', [orgId])
  return Number(result.rows[0].n)
}

/** Runs of the org due in the last minute or later: what counts against its runs per minute. */
export async function runsDueSince(q: Queryable, orgId: string, seconds: number): Promise<number> {
  const result = await q.query<{ n: string }>(
    `SELECT count(*) AS n FROM automation_runs WHERE org_id = $1 AND due_at > now() - make_interval(secs => $2)`,
    [orgId, seconds],
  )
  return Number(result.rows[0].n)
}

export async function hasUnfinishedRuns(q: Queryable, orgId: string, automationId: string): Promise<boolean> {
  const result = await q.query(
    `SELECT 1 FROM automation_runs WHERE org_id = $1 AND automation_id = $2 AND status IN ('pending', 'running') LIMIT 1`,
    [orgId, automationId],
  )
  return result.rows.length > 0
}

export async function deleteAutomation(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const result = await q.query('DELETE FROM automations WHERE org_id = $1 AND id = $2 RETURNING id', [orgId, id])
  return result.rows.length > 0
}

/** The enabled rules an event of this (canonical) name triggers. */
export async function rulesForEvent(q: Queryable, orgId: string, event: string): Promise<AutomationRow[]> {
  const result = await q.query<AutomationRow>(
    `SELECT ${automationColumns} FROM automations
     WHERE org_id = $1 AND trigger_event = $2 AND enabled AND trigger_type = 'event' ORDER BY id`,
    [orgId, event],
  )
  return result.rows
}

interface NewRun {
  id: string
  automationId: string
  event: string
  eventId: string | null
  scheduledFor: Date | null
  data: unknown
  depth: number
  actions: { type: string }[]
  manual: boolean
  /** Seconds from now until the run may be handed to DBOS (0: at once). */
  delayS: number
}

/** Inserts a run and its steps in one statement; no row when the event or slot has triggered this rule already. */
export async function insertRun(q: Queryable, orgId: string, run: NewRun): Promise<RunRow | undefined> {
  const result = await q.query<RunRow>(
    `WITH run AS (
       INSERT INTO automation_runs (org_id, id, automation_id, event, event_id, scheduled_for, data, depth, actions,
         manual, due_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + make_interval(secs => $11))
       ON CONFLICT DO NOTHING RETURNING ${runColumns}
     ), steps AS (
       INSERT INTO automation_run_steps (org_id, run_id, position, type, input)
       SELECT run.org_id, run.id, t.p - 1, t.a ->> 'type', t.a
       FROM run, jsonb_array_elements($9::jsonb) WITH ORDINALITY AS t(a, p)
     )
     SELECT * FROM run`,
    [
      orgId,
      run.id,
      run.automationId,
      run.event,
      run.eventId,
      run.scheduledFor,
      JSON.stringify(run.data),
      run.depth,
      JSON.stringify(run.actions),
      run.manual,
      run.delayS,
    ],
  )
  return result.rows[0]
}

/** Wakes listening automation workers at commit. */
export async function notifyWorkers(q: Queryable): Promise<void> {
  await q.query(`SELECT pg_notify('automation_trigger', '')`)
}

export async function runById(q: Queryable, orgId: string, id: string): Promise<RunRow | undefined> {
  const result = await q.query<RunRow>(`SELECT ${runColumns} FROM automation_runs WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ])
  return result.rows[0]
}

export async function listRuns(
  q: Queryable,
  orgId: string,
  f: { automationId: string; afterId?: string; status?: RunRow['status']; limit: number },
): Promise<RunRow[]> {
  const result = await q.query<RunRow>(
    `SELECT ${runColumns} FROM automation_runs
     WHERE org_id = $1 AND automation_id = $2 AND ($3::text IS NULL OR id > $3) AND ($4::text IS NULL OR status = $4)
     ORDER BY id LIMIT $5`,
    [orgId, f.automationId, f.afterId ?? null, f.status ?? null, f.limit],
  )
  return result.rows
}

export async function stepsOf(q: Queryable, orgId: string, runIds: readonly string[]): Promise<StepRow[]> {
  if (runIds.length === 0) return []
  const result = await q.query<StepRow>(
    `SELECT ${stepColumns} FROM automation_run_steps WHERE org_id = $1 AND run_id = ANY($2) ORDER BY run_id, position`,
    [orgId, runIds],
  )
  return result.rows
}

/** Moves a pending run to running (the workflow has started it); answers the run. */
export async function startRun(q: Queryable, orgId: string, id: string): Promise<RunRow | undefined> {
  const result = await q.query<RunRow>(
    `UPDATE automation_runs
     SET status = CASE WHEN status = 'pending' THEN 'running' ELSE status END,
         started_at = COALESCE(started_at, now())
     WHERE org_id = $1 AND id = $2 RETURNING ${runColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

/** A wait step starts: counted as its one attempt (and its run is running). */
export async function startWait(q: Queryable, orgId: string, runId: string, position: number): Promise<void> {
  await markRunning(q, orgId, runId)
  await q.query(
    `UPDATE automation_run_steps SET status = 'running', attempts = attempts + 1, started_at = now()
     WHERE org_id = $1 AND run_id = $2 AND position = $3 AND status <> 'succeeded'`,
    [orgId, runId, position],
  )
}

/** A retried run's first step moves it from pending back to running. */
async function markRunning(q: Queryable, orgId: string, runId: string): Promise<void> {
  await q.query(
    `UPDATE automation_runs SET status = 'running', started_at = COALESCE(started_at, now())
     WHERE org_id = $1 AND id = $2 AND status = 'pending'`,
    [orgId, runId],
  )
}

export async function lockStep(
  q: Queryable,
  orgId: string,
  runId: string,
  position: number,
): Promise<StepRow | undefined> {
  const result = await q.query<StepRow>(
    `SELECT ${stepColumns} FROM automation_run_steps WHERE org_id = $1 AND run_id = $2 AND position = $3 FOR UPDATE`,
    [orgId, runId, position],
  )
  return result.rows[0]
}

/** A step succeeded: its attempt is counted with it (`dbosStep`: its DBOS step number, null for a wait). */
export async function finishStep(
  q: Queryable,
  orgId: string,
  runId: string,
  position: number,
  output: unknown,
  dbosStep: number | null,
): Promise<void> {
  await markRunning(q, orgId, runId)
  await q.query(
    `UPDATE automation_run_steps
     SET status = 'succeeded', output = $4, error = NULL, finished_at = now(),
         attempts = attempts + CASE WHEN $5::int IS NULL THEN 0 ELSE 1 END,
         dbos_step = COALESCE($5, dbos_step), started_at = COALESCE(started_at, now())
     WHERE org_id = $1 AND run_id = $2 AND position = $3`,
    [orgId, runId, position, JSON.stringify(output ?? null), dbosStep],
  )
}

/**
 * Counts a failed attempt and keeps its error; the step stays running while attempts remain, else it has failed.
 * `dbosStep` is where a retry of the run resumes.
 */
export async function failAttempt(
  q: Queryable,
  orgId: string,
  runId: string,
  position: number,
  error: string,
  final: boolean,
  dbosStep: number | null,
): Promise<void> {
  await markRunning(q, orgId, runId)
  await q.query(
    `UPDATE automation_run_steps
     SET error = $4, status = CASE WHEN $5 THEN 'failed' ELSE 'running' END, attempts = attempts + 1,
         finished_at = CASE WHEN $5 THEN now() END, dbos_step = COALESCE($6, dbos_step),
         started_at = COALESCE(started_at, now())
     WHERE org_id = $1 AND run_id = $2 AND position = $3 AND status <> 'succeeded'`,
    [orgId, runId, position, error, final, dbosStep],
  )
}

export async function finishRun(
  q: Queryable,
  orgId: string,
  runId: string,
  status: 'succeeded' | 'failed',
  error: string | null,
): Promise<void> {
  await q.query(
    `UPDATE automation_runs SET status = $3, error = $4, finished_at = now()
     WHERE org_id = $1 AND id = $2 AND status IN ('pending', 'running')`,
    [orgId, runId, status, error],
  )
}

/**
 * A failed run goes back to pending, to be resumed from DBOS step `resumeFrom` (its failed step) by a worker;
 * the failed step starts afresh. No row when the run is not failed.
 */
export async function requestRetry(
  q: Queryable,
  orgId: string,
  runId: string,
  resumeFrom: number,
): Promise<RunRow | undefined> {
  const result = await q.query<RunRow>(
    `UPDATE automation_runs
     SET status = 'pending', resume_from = $3, retries = retries + 1, error = NULL, finished_at = NULL,
         dispatched_at = NULL
     WHERE org_id = $1 AND id = $2 AND status = 'failed' RETURNING ${runColumns}`,
    [orgId, runId, resumeFrom],
  )
  if (!result.rows[0]) return undefined
  await q.query(
    `UPDATE automation_run_steps SET status = 'pending', error = NULL, finished_at = NULL
     WHERE org_id = $1 AND run_id = $2 AND status = 'failed'`,
    [orgId, runId],
  )
  return result.rows[0]
}

export async function clearResume(q: Queryable, orgId: string, runId: string): Promise<void> {
  await q.query('UPDATE automation_runs SET resume_from = NULL WHERE org_id = $1 AND id = $2', [orgId, runId])
}

/**
 * Marks the open transaction's events as emitted at this automation depth (the outbox trigger of migration 0105
 * reads it), so the runs they trigger know how deep in a chain of automations they are.
 */
export async function setDepth(q: Queryable, depth: number): Promise<void> {
  await q.query(`SELECT set_config('app.automation_depth', $1, true)`, [String(depth)])
}

/** Re-scopes the open (unscoped) transaction to one org; row-level security follows `app.org_id`. */
export async function scopeTo(q: Queryable, orgId: string): Promise<void> {
  await q.query(`SELECT set_config('app.org_id', $1, true)`, [orgId])
}

export async function claimTriggers(q: Queryable, limit: number): Promise<ClaimedTriggerRow[]> {
  const result = await q.query<ClaimedTriggerRow>('SELECT org_id, event_id, depth FROM automation_claim_triggers($1)', [
    limit,
  ])
  return result.rows
}

export async function eventsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<OutboxEventRow[]> {
  const result = await q.query<OutboxEventRow>(
    'SELECT id, type, data FROM events WHERE org_id = $1 AND id = ANY($2) ORDER BY id',
    [orgId, ids],
  )
  return result.rows
}

export async function claimRuns(q: Queryable, limit: number, staleMs: number): Promise<ClaimedRunRow[]> {
  const result = await q.query<ClaimedRunRow>('SELECT org_id, id, resume_from FROM automation_claim_runs($1, $2)', [
    limit,
    staleMs,
  ])
  return result.rows
}

export async function scheduleRules(q: Queryable): Promise<ScheduleRuleRow[]> {
  const result = await q.query<ScheduleRuleRow>('SELECT org_id, id FROM automation_schedules()')
  return result.rows
}

export async function setScheduleCursor(q: Queryable, orgId: string, id: string, at: Date): Promise<void> {
  await q.query('UPDATE automations SET schedule_cursor = $3 WHERE org_id = $1 AND id = $2', [orgId, id, at])
}

/**
 * Blanks the trigger data of runs started by the customer's own events, and what their steps kept (an e-mail
 * step's address in its input and output, an error quoting it), for an erasure on request.
 */
export async function eraseCustomerRuns(q: Queryable, orgId: string, customerId: string): Promise<void> {
  await q.query(
    `UPDATE automation_run_steps s SET input = '{}', output = CASE WHEN s.output IS NULL THEN NULL ELSE '{}'::jsonb END,
       error = CASE WHEN s.error IS NULL THEN NULL ELSE 'erased' END
     FROM automation_runs r
     WHERE s.org_id = $1 AND r.org_id = $1 AND r.id = s.run_id AND r.event LIKE 'customer.%' AND r.data->>'id' = $2`,
    [orgId, customerId],
  )
  await q.query(
    `UPDATE automation_runs SET data = jsonb_build_object('id', $2::text, 'erased', true)
     WHERE org_id = $1 AND event LIKE 'customer.%' AND data->>'id' = $2`,
    [orgId, customerId],
  )
}
