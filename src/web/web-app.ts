import cookie from '@fastify/cookie'
import formbody from '@fastify/formbody'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { authorizePages } from './authorize.ts'
import { backOfficePages } from './back-office.ts'
import { dashboardPages } from './dashboard.ts'
import { html, page } from './html.ts'
import { invitationPages } from './invitation.ts'
import { loginPages } from './login.ts'
import { passwordResetPages } from './password-reset.ts'
import { installSecurityHeaders } from './security.ts'

/**
 * The web app on APP_PORT: the consent screen at `/oauth/authorize`, sign-in, invitation and password-reset links,
 * the back office (a single-page app on the public API, `/dashboard`) and the server-rendered apps pages.
 * Server-rendered HTML without scripts; forms carry CSRF tokens; pages cannot be framed.
 */
export async function buildWebApp(runtime: Runtime, services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    trustProxy: runtime.config.trustProxy,
    logger: {
      level: runtime.config.logLevel,
      redact: { paths: ['req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    },
  })
  await app.register(cookie)
  await app.register(formbody)
  installSecurityHeaders(app)

  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500
    if (status >= 500) request.log.error({ err: error }, 'unhandled error in the web app')
    const message =
      status >= 500 ? `Something went wrong (request id ${request.id}).` : 'The request could not be understood.'
    return reply
      .code(status >= 400 ? status : 500)
      .type('text/html; charset=utf-8')
      .send(page('Error', html`<h1>Error</h1><p class="error" role="alert">${message}</p>`))
  })
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('text/html; charset=utf-8').send(page('Not found', html`<h1>Not found</h1>`)),
  )

  const store = runtime.rateLimitStore
  app.get('/', async (_request, reply) => reply.code(303).header('location', '/dashboard').send())
  await app.register(loginPages, { runtime, services, store })
  await app.register(authorizePages, { runtime, services })
  await app.register(invitationPages, { runtime, services })
  await app.register(passwordResetPages, { runtime, services, store })
  await app.register(dashboardPages, { runtime, services })
  await app.register(backOfficePages, { runtime, services })
  return app
}
