import { badRequest, notFound } from '../../platform/errors/app-error.ts'
import { canonicalEvent, type EventEnvelope } from '../../platform/events/catalog.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { decodeCursor, type Page, toPage } from '../../platform/http/pagination.ts'
import { toEnvelope } from './envelope.ts'
import * as repo from './events.repo.ts'
import type { EventListQuery } from './events.schemas.ts'

const badCursor = () =>
  badRequest('cursor is malformed', [
    { field: 'cursor', message: 'is not a cursor this API issued', code: 'invalid_cursor' },
  ])
const DIGITS = /^\d{1,20}$/

/** Turns `type=a,b&type=c` into a de-duplicated list of canonical names. */
function typeFilter(types: string[] | undefined): string[] | undefined {
  if (!types || types.length === 0) return undefined
  return [...new Set(types.flatMap((t) => t.split(',')).map((t) => canonicalEvent(t.trim())))]
}

/** `retentionDays`, how long the API serves an event, is the configuration's (EVENT_RETENTION_DAYS; 30 by default). */
export function createEventsService(retentionDays: number) {
  return {
    /** An erasure on request: the customer's own events keep only its id; answers their ids. */
    eraseCustomer(ctx: RequestContext, customerId: string): Promise<string[]> {
      return ctx.db.tx((q) => repo.eraseCustomerEvents(q, ctx.orgId, customerId))
    },

    /** The org's events of the retention period (30 days by default) in commit order, oldest first, filtered by type and time. */
    async list(ctx: RequestContext, query: EventListQuery): Promise<Page<EventEnvelope>> {
      const key = decodeCursor(query.cursor, 2)
      if (key && !key.every((part) => typeof part === 'string' && DIGITS.test(part))) throw badCursor()
      const createdFrom = query.created_from === undefined ? undefined : new Date(query.created_from)
      const createdTo = query.created_to === undefined ? undefined : new Date(query.created_to)
      if (createdFrom && createdTo && createdFrom > createdTo) {
        throw badRequest('created_from is after created_to', [
          { field: 'created_from', message: 'must not be after created_to', code: 'invalid_range' },
        ])
      }
      const rows = await ctx.db.read((q) =>
        repo.listEvents(q, ctx.orgId, {
          after: key ? { txid: String(key[0]), seq: String(key[1]) } : undefined,
          types: typeFilter(query.type),
          createdFrom,
          createdTo,
          retentionDays,
          limit: query.limit + 1,
        }),
      )
      return toPage(rows, query.limit, (r) => [r.txid, r.seq], toEnvelope)
    },

    async get(ctx: RequestContext, id: string): Promise<EventEnvelope> {
      const row = await ctx.db.read((q) => repo.eventById(q, ctx.orgId, id, retentionDays))
      if (!row) throw notFound('event')
      return toEnvelope(row)
    },
  }
}

export type EventsService = ReturnType<typeof createEventsService>
