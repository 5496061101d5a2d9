import type { FastifyInstance, FastifyReply } from 'fastify'
import { AppError } from '../platform/errors/app-error.ts'
import { passwordResetLimit, type RateLimitStore } from '../platform/rate-limit/index.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { hidden, html, page } from './html.ts'
import { csrfMatches, LOGIN_CSRF_COOKIE, loginCsrf } from './security.ts'

function requestPage(csrf: string, notice?: string, error?: string) {
  return page(
    'Reset your password',
    html`<h1>Reset your password</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<p>Enter the e-mail you sign in with. If it belongs to an account, a link to choose a new password is sent to it; the link works once, for 30 minutes.</p>
<form method="post" action="/forgot-password">
  ${hidden('csrf', csrf)}
  <label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required>
  <button class="primary" type="submit">Send the link</button>
</form>
<p><a href="/login">Back to sign in</a></p>`,
  )
}

function choosePage(csrf: string, error?: string) {
  return page(
    'Choose a new password',
    html`<h1>Choose a new password</h1>
<p>At least 10 characters, and not one of the most common passwords. Every session of your account ends once it is set.</p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post">
  ${hidden('csrf', csrf)}
  <label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
  <label for="confirm">New password again</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="10" required>
  <button class="primary" type="submit">Set my password</button>
</form>`,
  )
}

const donePage = () =>
  page(
    'Password changed',
    html`<h1>Your password is changed</h1>
<p class="notice" role="status">Sign in with your new password.</p>
<p><a href="/login">Sign in</a></p>`,
  )

/** What a refused password or link is, in words (the API's field errors). */
export function passwordRefusal(error: AppError, link: string): string {
  const problem = error.errors?.[0]
  if (problem?.field === 'password' && problem.code === 'incorrect')
    return 'This e-mail already has an OpenTill account: enter its password to join this store.'
  if (problem?.field === 'password')
    return problem.code === 'too_common'
      ? 'This password is one of the most common ones. Choose another.'
      : 'The password must be at least 10 characters.'
  return `This ${link} link is invalid, already used or expired.`
}

/** "Forgot your password?": the request form (`/forgot-password`) and the page a reset link opens. */
export async function passwordResetPages(
  app: FastifyInstance,
  { runtime, services, store }: { runtime: Runtime; services: Services; store: RateLimitStore },
) {
  const secure = runtime.config.appUrl.startsWith('https:')
  const send = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').send(body)

  app.get('/forgot-password', async (request, reply) =>
    send(reply, 200, requestPage(loginCsrf(request, reply, secure))),
  )

  app.post<{ Body: Record<string, unknown> }>('/forgot-password', async (request, reply) => {
    const body = request.body ?? {}
    const csrf = loginCsrf(request, reply, secure)
    if (!csrfMatches(request.cookies[LOGIN_CSRF_COOKIE], body.csrf))
      return send(reply, 403, requestPage(csrf, undefined, 'This form expired. Please try again.'))
    const email = typeof body.email === 'string' ? body.email.trim() : ''
    if (!email) return send(reply, 422, requestPage(csrf, undefined, 'Enter your e-mail.'))
    try {
      await passwordResetLimit(store, request.ip, email)
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error
      return send(reply, 429, requestPage(csrf, undefined, `Too many requests. ${error.message}.`))
    }
    services.passwords.requestReset(email, request.log)
    return send(reply, 200, requestPage(csrf, `If ${email} belongs to an account, a link is on its way to it.`))
  })

  app.get<{ Params: { token: string } }>('/reset-password/:token', async (request, reply) =>
    send(reply, 200, choosePage(loginCsrf(request, reply, secure))),
  )

  app.post<{ Params: { token: string }; Body: Record<string, unknown> }>(
    '/reset-password/:token',
    async (request, reply) => {
      const body = request.body ?? {}
      const csrf = loginCsrf(request, reply, secure)
      if (!csrfMatches(request.cookies[LOGIN_CSRF_COOKIE], body.csrf))
        return send(reply, 403, choosePage(csrf, 'This form expired. Please try again.'))
      const password = typeof body.password === 'string' ? body.password : ''
      if (password !== body.confirm) return send(reply, 422, choosePage(csrf, 'The two passwords differ.'))
      try {
        await services.passwords.confirmReset(request.params.token, password)
        return send(reply, 200, donePage())
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error
        return send(reply, error.status, choosePage(csrf, passwordRefusal(error, 'reset')))
      }
    },
  )
}
