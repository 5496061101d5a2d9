/** Row types and column lists of the automations tables, once each (db/migrations/0105_automations.sql, 0134). */

export interface AutomationRow {
  id: string
  org_id: string
  name: string
  enabled: boolean
  trigger_type: 'event' | 'schedule'
  trigger_event: string | null
  trigger: unknown
  conditions: unknown
  actions: unknown
  schedule_cursor: Date | null
  author_user_id: string | null
  author_client_id: string
  author_grant_id: string | null
  author_scopes: string[]
  version: number
  created_at: Date
  updated_at: Date
}

export const automationColumns =
  'id, org_id, name, enabled, trigger_type, trigger_event, trigger, conditions, actions, schedule_cursor, author_user_id, author_client_id, author_grant_id, author_scopes, version, created_at, updated_at'

type RunStatus = 'pending' | 'running' | 'succeeded' | 'failed'

export interface RunRow {
  id: string
  org_id: string
  automation_id: string
  status: RunStatus
  event: string
  event_id: string | null
  scheduled_for: Date | null
  data: unknown
  depth: number
  actions: unknown
  error: string | null
  retries: number
  resume_from: number | null
  manual: boolean
  due_at: Date
  created_at: Date
  started_at: Date | null
  finished_at: Date | null
}

export const runColumns =
  'id, org_id, automation_id, status, event, event_id, scheduled_for, data, depth, actions, error, retries, resume_from, manual, due_at, created_at, started_at, finished_at'

export interface StepRow {
  run_id: string
  position: number
  type: string
  status: RunStatus
  input: unknown
  output: unknown
  error: string | null
  attempts: number
  dbos_step: number | null
  started_at: Date | null
  finished_at: Date | null
}

export const stepColumns =
  'run_id, position, type, status, input, output, error, attempts, dbos_step, started_at, finished_at'

/** What automation_claim_triggers() answers (the queue of migration 0105). */
export interface ClaimedTriggerRow {
  org_id: string
  event_id: string
  depth: number
}

/** What automation_claim_runs() answers. */
export type ClaimedRunRow = Pick<RunRow, 'org_id' | 'id' | 'resume_from'>

/** What automation_schedules() answers. */
export type ScheduleRuleRow = Pick<AutomationRow, 'org_id' | 'id'>

/** The outbox events a claimed trigger names (the events table of db/migrations/0001_platform.sql). */
export interface OutboxEventRow {
  id: string
  type: string
  data: unknown
}
