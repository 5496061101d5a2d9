import { newId } from '../../platform/crypto/ids.ts'
import type { Queryable } from '../../platform/db/database.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { afterIdOf, type Page, toPage } from '../../platform/http/pagination.ts'
import * as repo from './audit.repo.ts'
import type { AuditAction, AuditEntry, AuditLogQuery } from './audit.schemas.ts'
import type { AuditRow } from './audit.tables.ts'

export interface AuditRecord {
  action: AuditAction
  record: { type: string; id: string }
  /** The fields that changed as {from, to}, or the amounts of the action: ids and values, never personal data. */
  changes?: Record<string, unknown>
}

/**
 * Records who did what in the caller's transaction, so the entry commits with the change or not at all
 * (docs/people-and-settings.md "Audit log").
 */
export async function recordAudit(
  q: Queryable,
  ctx: Pick<RequestContext, 'orgId' | 'actor' | 'requestId'>,
  entry: AuditRecord,
): Promise<void> {
  const byApp = ctx.actor.kind === 'app'
  await repo.insertEntry(q, ctx.orgId, {
    id: newId('aud'),
    actor_kind: byApp ? 'app' : ctx.actor.userId ? 'user' : 'system',
    actor_user_id: ctx.actor.userId,
    actor_client_id: ctx.actor.clientId,
    register_id: ctx.actor.registerId ?? null,
    action: entry.action,
    record_type: entry.record.type,
    record_id: entry.record.id,
    changes: entry.changes ?? {},
    request_id: ctx.requestId || null,
  })
}

/**
 * Who acts when no request names them (an invitation accepted, a password reset, a consent): the person themself,
 * through the web app or the API's login (`first-party`).
 */
export function actingUser(orgId: string, userId: string): Pick<RequestContext, 'orgId' | 'actor' | 'requestId'> {
  return { orgId, actor: { kind: 'user', userId, clientId: 'first-party' }, requestId: '' }
}

/** The fields of `after` whose value differs from `before`, each as {from, to}: what an update changed. */
export function changedFields<T extends object>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {}
  for (const field of fields) {
    if (!(field in after)) continue
    const from = before[field]
    const to = after[field]
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to }
  }
  return changes
}

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    actor: { kind: row.actor_kind, user_id: row.actor_user_id, client_id: row.actor_client_id },
    register_id: row.register_id,
    action: row.action as AuditAction,
    record_type: row.record_type,
    record_id: row.record_id,
    changes: row.changes,
    request_id: row.request_id,
  }
}

export function createAuditService() {
  return {
    /** Newest first, filtered by user, action, record and time. */
    async list(ctx: RequestContext, query: AuditLogQuery): Promise<Page<AuditEntry>> {
      const rows = await ctx.db.read((q) =>
        repo.listEntries(q, ctx.orgId, {
          userId: query.user_id,
          action: query.action,
          recordId: query.record_id,
          from: query.from,
          to: query.to,
          afterId: afterIdOf(query.cursor) ?? undefined,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.id], toEntry)
    },
  }
}

export type AuditService = ReturnType<typeof createAuditService>
