import type { FastifyReply, FastifyRequest } from 'fastify'
import type { WebSession } from '../modules/oauth/index.ts'
import type { Database } from '../platform/db/database.ts'
import { orgDb } from '../platform/db/org-db.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { Services } from '../services.ts'
import { SESSION_COOKIE } from './security.ts'

/** The signed-in merchant of a web request, or null. */
export async function currentSession(request: FastifyRequest, services: Services): Promise<WebSession | null> {
  return services.oauth.webSessions.find(request.cookies[SESSION_COOKIE])
}

/** The dashboard's RequestContext: the signed-in user's org and role scopes, like an API call of theirs. */
export function contextOf(request: FastifyRequest, database: Database, session: WebSession): RequestContext {
  return {
    orgId: session.orgId,
    actor: { kind: 'user', userId: session.userId, clientId: 'dashboard' },
    scopes: new Set(session.scopes),
    sessionId: 'web',
    requestId: String(request.id),
    log: request.log,
    db: orgDb(database, session.orgId),
    catalogVersion: null,
  }
}

/** Sends the browser to sign in first, then back here. */
export function toSignIn(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(303)
    .header('location', `/login?return_to=${encodeURIComponent(request.url)}`)
    .send()
}
