import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppError } from '../platform/errors/app-error.ts'
import { loginAccountLimit, loginAddressLimit } from '../platform/rate-limit/index.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { hidden, html, page } from './html.ts'
import { passwordRefusal } from './password-reset.ts'
import { cookieOptions, csrfMatches, LOGIN_CSRF_COOKIE, loginCsrf, SESSION_COOKIE } from './security.ts'

type Params = { token: string }

function invitationPage(csrf: string, error?: string) {
  return page(
    'Set your password',
    html`<h1>Welcome to OpenTill</h1>
<p>Choose the password you will sign in with (at least 10 characters, not one of the most common passwords). If you already have an OpenTill account at another store, enter its password to join this one.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post">
  ${hidden('csrf', csrf)}
  <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
  <label for="confirm">Password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="10" required>
  <button class="primary" type="submit">Create my account</button>
</form>`,
  )
}

function unusablePage() {
  return page(
    'Invitation used or expired',
    html`<h1>This invitation can no longer be used</h1>
<p class="error" role="alert">It has expired, was withdrawn, or was already used. Ask whoever invited you for a new one,
or <a href="/login">sign in</a> if you already chose a password with it.</p>`,
  )
}

function acceptedPage(email: string) {
  return page(
    'Account ready',
    html`<h1>Your account is ready</h1>
<p class="notice" role="status">Sign in as <strong>${email}</strong> with the password you chose.</p>
<p><a href="/login">Sign in</a></p>`,
  )
}

/** What the invitee is told of a refusal; the API's codes, in words (docs/partners.md). */
function refusalOf(error: AppError): string {
  if (error.status === 429) return `Too many attempts. ${error.message}.`
  if (error.code === 'EMAIL_TAKEN')
    return 'This e-mail is already a user of this store. Sign in with it, or ask whoever invited you to invite another address.'
  const refusal = passwordRefusal(error, 'invitation')
  return error.errors?.[0]?.field === 'password' ? refusal : `${refusal} Ask whoever invited you for a new one.`
}

/** The page an invitation link (`{APP_URL}/invite/inv_…`) opens: the invitee chooses a password, once. */
export async function invitationPages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const secure = runtime.config.appUrl.startsWith('https:')
  const send = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').send(body)

  // The link is checked as it opens: a used, withdrawn or expired one says so at once, with a 410.
  app.get<{ Params: Params }>('/invite/:token', async (request, reply) => {
    try {
      await services.invitations.check(request.params.token)
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error
      return send(reply, 410, unusablePage())
    }
    return send(reply, 200, invitationPage(loginCsrf(request, reply, secure)))
  })

  app.post<{ Params: Params; Body: Record<string, unknown> }>('/invite/:token', async (request, reply) => {
    const body = request.body ?? {}
    const csrf = loginCsrf(request, reply, secure)
    if (!csrfMatches(request.cookies[LOGIN_CSRF_COOKIE], body.csrf))
      return send(reply, 403, invitationPage(csrf, 'This form expired. Please try again.'))
    const password = typeof body.password === 'string' ? body.password : ''
    if (password !== body.confirm) return send(reply, 422, invitationPage(csrf, 'The two passwords differ.'))
    try {
      await loginAddressLimit(runtime.rateLimitStore, request.ip, reply)
      const accepted = await services.invitations.accept(request.params.token, password, (email) =>
        loginAccountLimit(runtime.rateLimitStore, email, reply),
      )
      // The new person is signed in and lands in the back office; one of several stores chooses at sign-in.
      const signedIn = await services.oauth.webSessions.signIn(accepted.email, password)
      if (signedIn.kind === 'choose') return send(reply, 200, acceptedPage(accepted.email))
      reply.setCookie(SESSION_COOKIE, signedIn.cookie, cookieOptions(secure, services.oauth.webSessions.ttlSeconds))
      return reply.code(303).header('location', new URL('/dashboard', runtime.config.appUrl).href).send()
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error
      return send(reply, error.status, invitationPage(csrf, refusalOf(error)))
    }
  })
}
