import type { FastifyInstance } from 'fastify'
import { AppError } from '../platform/errors/app-error.ts'
import { loginAccountLimit, loginAddressLimit, type RateLimitStore } from '../platform/rate-limit/index.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { currentSession } from './context.ts'
import { hidden, html, page } from './html.ts'
import {
  cookieOptions,
  csrfMatches,
  LOGIN_CSRF_COOKIE,
  loginCsrf,
  returnLocation,
  SESSION_COOKIE,
  safeReturnTo,
} from './security.ts'

function loginPage(csrf: string, returnTo: string, error?: string, email = '') {
  return page(
    'Sign in',
    html`<h1>Sign in to OpenTill</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/login">
  ${hidden('csrf', csrf)}${hidden('return_to', returnTo)}
  <label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
  <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
  <button class="primary" type="submit">Sign in</button>
</form>
<p><a href="/forgot-password">Forgot your password?</a></p>`,
  )
}

/** How long a person of several stores has to choose one after the password (the proof's own lifetime bounds it). */
const PENDING_TTL_S = 10 * 60
const PENDING_COOKIE = 'opentill_pending_sign_in'

function storePage(csrf: string, returnTo: string, orgs: { id: string; name: string }[]) {
  return page(
    'Choose a store',
    html`<h1>Choose a store</h1>
<p>Your e-mail signs in to several stores.</p>
<form method="post" action="/login/store">
  ${hidden('csrf', csrf)}${hidden('return_to', returnTo)}
  <fieldset>
    <legend>Store</legend>
    ${orgs.map(
      (o, i) =>
        html`<label><input type="radio" name="org_id" value="${o.id}"${i === 0 ? html` checked` : ''}> ${o.name}</label>`,
    )}
  </fieldset>
  <button class="primary" type="submit">Continue</button>
</form>`,
  )
}

export async function loginPages(
  app: FastifyInstance,
  { runtime, services, store }: { runtime: Runtime; services: Services; store: RateLimitStore },
) {
  const secure = runtime.config.appUrl.startsWith('https:')

  app.get<{ Querystring: { return_to?: string } }>('/login', async (request, reply) => {
    const returnTo = safeReturnTo(request.query.return_to, runtime.config.appUrl)
    if (await currentSession(request, services))
      return reply.code(303).header('location', returnLocation(returnTo, runtime.config.appUrl)).send()
    return reply.type('text/html; charset=utf-8').send(loginPage(loginCsrf(request, reply, secure), returnTo))
  })

  app.post<{ Body: Record<string, unknown> }>('/login', async (request, reply) => {
    const body = request.body ?? {}
    const returnTo = safeReturnTo(body.return_to, runtime.config.appUrl)
    const csrf = loginCsrf(request, reply, secure)
    if (!csrfMatches(request.cookies[LOGIN_CSRF_COOKIE], body.csrf)) {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(loginPage(csrf, returnTo, 'Your sign-in form expired. Please try again.'))
    }
    const email = typeof body.email === 'string' ? body.email.trim() : ''
    const password = typeof body.password === 'string' ? body.password : ''
    if (!email || !password) {
      return reply
        .code(422)
        .type('text/html; charset=utf-8')
        .send(loginPage(csrf, returnTo, 'Enter your e-mail and password.', email))
    }
    try {
      await loginAddressLimit(store, request.ip, reply)
      await loginAccountLimit(store, email, reply)
      const signedIn = await services.oauth.webSessions.signIn(email, password)
      if (signedIn.kind === 'choose') {
        reply.setCookie(PENDING_COOKIE, signedIn.pending, { ...cookieOptions(secure, PENDING_TTL_S), path: '/login' })
        return reply.type('text/html; charset=utf-8').send(storePage(csrf, returnTo, signedIn.orgs))
      }
      reply.setCookie(SESSION_COOKIE, signedIn.cookie, cookieOptions(secure, services.oauth.webSessions.ttlSeconds))
      return reply.code(303).header('location', returnLocation(returnTo, runtime.config.appUrl)).send()
    } catch (error) {
      if (!(error instanceof AppError) || (error.status !== 401 && error.status !== 429)) throw error
      const message =
        error.status === 429 ? `Too many sign-in attempts. ${error.message}.` : 'The e-mail or password is incorrect.'
      return reply
        .code(error.status)
        .type('text/html; charset=utf-8')
        .send(loginPage(csrf, returnTo, message, email))
    }
  })

  // A person of several stores chose one: the pending cookie proves the password, for 10 minutes.
  app.post<{ Body: Record<string, unknown> }>('/login/store', async (request, reply) => {
    const body = request.body ?? {}
    const returnTo = safeReturnTo(body.return_to, runtime.config.appUrl)
    const csrf = loginCsrf(request, reply, secure)
    const pending = request.cookies[PENDING_COOKIE]
    const orgId = typeof body.org_id === 'string' ? body.org_id : ''
    const again = (message: string) =>
      reply
        .code(401)
        .type('text/html; charset=utf-8')
        .send(loginPage(csrf, returnTo, message))
    if (!csrfMatches(request.cookies[LOGIN_CSRF_COOKIE], body.csrf) || !pending || !orgId)
      return again('Your sign-in expired. Please sign in again.')
    try {
      const { cookie } = await services.oauth.webSessions.signInToStore(pending, orgId)
      reply.clearCookie(PENDING_COOKIE, { path: '/login' })
      reply.setCookie(SESSION_COOKIE, cookie, cookieOptions(secure, services.oauth.webSessions.ttlSeconds))
      return reply.code(303).header('location', returnLocation(returnTo, runtime.config.appUrl)).send()
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 401) throw error
      return again('Your sign-in expired. Please sign in again.')
    }
  })

  app.post<{ Body: Record<string, unknown> }>('/logout', async (request, reply) => {
    const session = await currentSession(request, services)
    if (session && csrfMatches(session.csrfToken, request.body?.csrf)) {
      await services.oauth.webSessions.signOut(request.cookies[SESSION_COOKIE]!, session)
      reply.clearCookie(SESSION_COOKIE, { path: '/' })
    }
    return reply.code(303).header('location', '/login').send()
  })
}
