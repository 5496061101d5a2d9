import type { FastifyBaseLogger } from 'fastify'
import pino from 'pino'
import type { Database } from '../db/database.ts'
import { orgDb } from '../db/org-db.ts'
import type { RequestContext } from './context.ts'

/**
 * A context for work the process does for an org outside a request (seeding, commands, jobs): all scopes,
 * the same org-scoped database access as a request.
 */
export function systemContext(
  database: Database,
  orgId: string,
  scopes: readonly string[],
  log?: FastifyBaseLogger,
): RequestContext {
  return {
    orgId,
    actor: { kind: 'app', userId: null, clientId: 'system' },
    scopes: new Set(scopes),
    sessionId: 'system',
    requestId: 'system',
    log: log ?? (pino({ level: 'silent' }) as unknown as FastifyBaseLogger),
    db: orgDb(database, orgId),
    catalogVersion: null,
  }
}
