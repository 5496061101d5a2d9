import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { sendCsv, wantsCsv } from '../../platform/http/csv.ts'
import { ALSO_CSV } from '../../platform/http/openapi-document.ts'
import type { Page } from '../../platform/http/pagination.ts'
import { ListOf } from '../../platform/http/schemas.ts'
import { type AuditEntry, AuditEntrySchema, AuditLogQuery } from './audit.schemas.ts'
import type { AuditService } from './audit.service.ts'

const tags = ['audit']
const CSV_COLUMNS = [
  'id',
  'occurred_at',
  'actor_kind',
  'actor_user_id',
  'actor_client_id',
  'register_id',
  'action',
  'record_type',
  'record_id',
  'changes',
  'request_id',
] as const

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService }> = async (app, { audit }) => {
  app.addSchema(AuditEntrySchema)

  app.get(
    '/audit-log',
    {
      config: { scope: 'audit:read' },
      schema: {
        operationId: 'listAuditLog',
        tags,
        summary: 'Who did what: sensitive actions, newest first; CSV with format=csv or Accept: text/csv',
        querystring: AuditLogQuery,
        response: { 200: ListOf(Type.Ref('AuditEntry')) },
        [ALSO_CSV]: true,
      },
    },
    async (request, reply) => {
      const page = await audit.list(request.ctx, request.query)
      return wantsCsv(request) ? answerCsv(reply, page) : page
    },
  )
}

/** One page as CSV; the next page's cursor in `X-Next-Cursor`. */
function answerCsv(reply: FastifyReply, page: Page<AuditEntry>) {
  const rows = page.data.map((e) => ({
    id: e.id,
    occurred_at: new Date(e.occurred_at).toISOString(),
    actor_kind: e.actor.kind,
    actor_user_id: e.actor.user_id ?? '',
    actor_client_id: e.actor.client_id ?? '',
    register_id: e.register_id ?? '',
    action: e.action,
    record_type: e.record_type,
    record_id: e.record_id,
    changes: JSON.stringify(e.changes),
    request_id: e.request_id ?? '',
  }))
  if (page.pagination.nextCursor) reply.header('x-next-cursor', page.pagination.nextCursor)
  return sendCsv(reply, 'audit-log.csv', rows, CSV_COLUMNS)
}
