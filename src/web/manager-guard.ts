import type { FastifyReply, FastifyRequest } from 'fastify'
import type { WebSession } from '../modules/oauth/index.ts'
import type { Database } from '../platform/db/database.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { Services } from '../services.ts'
import { contextOf, currentSession, toSignIn } from './context.ts'
import { type Html, hidden, html, page } from './html.ts'
import { csrfMatches } from './security.ts'

/** Apps, connections and webhooks are integrations: managing them takes the integrations permission (owners). */
const MANAGE_SCOPE = 'webhooks:write'

export type Form = Record<string, unknown>

interface Manager {
  ctx: RequestContext
  session: WebSession
}

export function signOutForm(session: WebSession): Html {
  return html`<form method="post" action="/logout">${hidden('csrf', session.csrfToken)}<p>Signed in as ${session.email} <button type="submit">Sign out</button></p></form>`
}

/**
 * The signed-in manager of a dashboard request, or null when a reply was already sent: the sign-in redirect, a
 * form whose CSRF token does not match (`post`), or a refusal for a user without the managing permission.
 */
export function managerGuard(
  database: Database,
  services: Services,
  scope = MANAGE_SCOPE,
  refusal = 'Only the store owner manages apps, connections and webhooks.',
) {
  return async function guard(request: FastifyRequest, reply: FastifyReply, post: boolean): Promise<Manager | null> {
    const session = await currentSession(request, services)
    if (!session) {
      await toSignIn(request, reply)
      return null
    }
    if (post && !csrfMatches(session.csrfToken, (request.body as Form | undefined)?.csrf)) {
      await reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Form expired',
            html`<h1>Form expired</h1><p class="error" role="alert">The form expired or did not come from this site. Go back and try again.</p>`,
            { nav: true },
          ),
        )
      return null
    }
    if (!session.scopes.includes(scope)) {
      await reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Not allowed',
            html`<h1>Not allowed</h1><p class="error" role="alert">${refusal}</p>${signOutForm(session)}`,
          ),
        )
      return null
    }
    return { ctx: contextOf(request, database, session), session }
  }
}
