/** audit_log (db/migrations/0139_people_and_settings.sql). */
export interface AuditRow {
  id: string
  occurred_at: Date
  actor_kind: 'user' | 'app' | 'system'
  actor_user_id: string | null
  actor_client_id: string | null
  register_id: string | null
  action: string
  record_type: string
  record_id: string
  changes: Record<string, unknown>
  request_id: string | null
}

export const auditColumns =
  'id, occurred_at, actor_kind, actor_user_id, actor_client_id, register_id, action, record_type, record_id, changes, request_id'
