import type { FastifyInstance, FastifyReply } from 'fastify'
import { CONSENT_SCOPE } from '../modules/auth/index.ts'
import { grantedScopes, scopeDescriptions, type WebSession, withParams } from '../modules/oauth/index.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { AUTHORIZE_PARAMS, type AuthorizeParams, checkAuthorizeRequest, pickParams } from './authorize-request.ts'
import { currentSession, toSignIn } from './context.ts'
import { hidden, html, page } from './html.ts'
import { csrfMatches } from './security.ts'

const ONLY_MANAGERS = "Only the store's owner or a manager can connect an application. Ask one of them to sign in."

function errorPage(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page(
        'Cannot continue',
        html`<h1>This request cannot continue</h1><p class="error" role="alert">${message}</p><p>Go back to the application and try again, or contact its developer.</p>`,
      ),
    )
}

function consentPage(
  session: WebSession,
  appName: string,
  granted: string[],
  refused: string[],
  params: AuthorizeParams,
) {
  return page(
    `Allow ${appName}?`,
    html`<h1>Allow <strong>${appName}</strong> to access your store?</h1>
<p>Signed in as ${session.email}.</p>
<h2>${appName} will be able to:</h2>
<ul>${granted.map((s) => html`<li>${scopeDescriptions[s] ?? s} <small>(<code>${s}</code>)</small></li>`)}</ul>
${refused.length ? html`<p>It asked for more, which it will not get: ${refused.map((s) => html`<code>${s}</code> `)}</p>` : ''}
<p>You can disconnect it at any time under Connected apps in your dashboard.</p>
<form method="post" action="/oauth/authorize">
  ${hidden('csrf', session.csrfToken)}
  ${AUTHORIZE_PARAMS.map((name) => hidden(name, params[name]))}
  <button class="primary" type="submit" name="decision" value="approve">Allow access</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  )
}

/** `GET|POST {APP_URL}/oauth/authorize`: the consent screen (RFC 6749 §4.1.1 to §4.1.2, RFC 9207 `iss`). */
export async function authorizePages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const issuer = runtime.config.baseUrl

  app.get<{ Querystring: Record<string, unknown> }>('/oauth/authorize', async (request, reply) => {
    const params = pickParams(request.query)
    if ('repeated' in params) return errorPage(reply, 400, `The parameter ${params.repeated} appears more than once.`)
    const checked = await checkAuthorizeRequest(services, issuer, params)
    if (checked.kind === 'page') return errorPage(reply, checked.status, checked.message)
    if (checked.kind === 'redirect') return reply.code(303).header('location', checked.location).send()
    const session = await currentSession(request, services)
    if (!session) return toSignIn(request, reply)
    if (!session.scopes.includes(CONSENT_SCOPE)) return errorPage(reply, 403, ONLY_MANAGERS)
    const granted = grantedScopes(checked.requested, checked.app.allowedScopes, session.scopes)
    if (granted.length === 0) {
      const location = withParams(checked.redirectUri, {
        error: 'invalid_scope',
        error_description: 'none of the requested scopes can be granted',
        state: checked.state,
        iss: issuer,
      })
      return reply.code(303).header('location', location).send()
    }
    const refused = checked.requested.filter((s) => !granted.includes(s))
    return reply.type('text/html; charset=utf-8').send(consentPage(session, checked.app.name, granted, refused, params))
  })

  app.post<{ Body: Record<string, unknown> }>('/oauth/authorize', async (request, reply) => {
    const body = request.body ?? {}
    const session = await currentSession(request, services)
    if (!session) return toSignIn(request, reply)
    // A forged or stale form is refused on the page: it must never produce a redirect with a code.
    if (!csrfMatches(session.csrfToken, body.csrf))
      return errorPage(reply, 403, 'The consent form expired or did not come from this site.')
    if (!session.scopes.includes(CONSENT_SCOPE)) return errorPage(reply, 403, ONLY_MANAGERS)
    const params = pickParams(body)
    if ('repeated' in params) return errorPage(reply, 400, `The parameter ${params.repeated} appears more than once.`)
    const checked = await checkAuthorizeRequest(services, issuer, params)
    if (checked.kind === 'page') return errorPage(reply, checked.status, checked.message)
    if (checked.kind === 'redirect') return reply.code(303).header('location', checked.location).send()
    if (body.decision !== 'approve') {
      const location = withParams(checked.redirectUri, {
        error: 'access_denied',
        error_description: 'the merchant denied access',
        state: checked.state,
        iss: issuer,
      })
      return reply.code(303).header('location', location).send()
    }
    const scopes = grantedScopes(checked.requested, checked.app.allowedScopes, session.scopes)
    if (scopes.length === 0)
      return errorPage(reply, 403, 'Your role allows none of the access this application asks for.')
    const code = await services.oauth.grants.issueCode({
      orgId: session.orgId,
      clientId: checked.app.id,
      userId: session.userId,
      scopes,
      redirectUri: checked.redirectUri,
      codeChallenge: checked.codeChallenge,
    })
    return reply
      .code(303)
      .header('location', withParams(checked.redirectUri, { code, state: checked.state, iss: issuer }))
      .send()
  })
}
