import { readFile } from 'node:fs/promises'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { fromRoot } from '../platform/paths.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { currentSession, toSignIn } from './context.ts'
import { html, page } from './html.ts'

/** Where `npm run dashboard:build` (scripts/build-dashboard.mjs) puts the back office. */
const BUILD = `${fromRoot('apps', 'dashboard', 'dist')}/`

/**
 * The back office (apps/dashboard): a single-page app on the public API through @opentill/client. Its page is
 * served here to a signed-in person; its scripts and styles are this origin's alone; it calls the API on
 * BASE_URL, which allows this origin by CORS, with access tokens from `POST /dashboard/session`
 * (docs/decisions.md "The back office").
 */
export async function backOfficePages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const { appUrl, baseUrl } = runtime.config
  const appOrigin = new URL(appUrl).origin
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src 'self' ${new URL(baseUrl).origin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ')

  // Hashed file names: a new build is new names, so a browser may keep these for a year.
  await app.register(fastifyStatic, {
    root: `${BUILD}assets`,
    prefix: '/dashboard/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    index: false,
  })

  async function appPage(request: FastifyRequest, reply: FastifyReply) {
    if (!(await currentSession(request, services))) return toSignIn(request, reply)
    // Read each time (a small file the OS keeps): a rebuild's new asset names are served at once.
    const shell = await readFile(`${BUILD}index.html`, 'utf8').catch(() => undefined)
    if (!shell)
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Back office not built',
            html`<h1>The back office is not built</h1><p>Run <code>npm run dashboard:build</code> (or <code>npm install</code>), then reload.</p>`,
          ),
        )
    return reply.header('content-security-policy', policy).type('text/html; charset=utf-8').send(shell)
  }
  app.get('/dashboard', appPage)
  // Every other path under /dashboard is a page of the app (its router reads the address), except the
  // server-rendered pages registered beside it (apps, connected apps, webhooks), which Fastify matches first.
  app.get('/dashboard/*', appPage)

  /**
   * A short-lived access token of the signed-in person's API session, for the page's calls. Only this origin's
   * page may ask (the Origin header; a cross-site POST of JSON also needs a CORS preflight this app never grants),
   * and the refresh of the session stays in the HttpOnly cookie.
   */
  app.post('/dashboard/session', async (request, reply) => {
    if (request.headers.origin !== appOrigin)
      return reply.code(403).send({ error: 'forbidden', detail: 'only the back office of this origin may ask' })
    const session = await currentSession(request, services)
    const grant = session && (await services.oauth.webSessions.accessTokenOf(session))
    if (!session || !grant) return reply.code(401).send({ error: 'unauthorized', detail: 'sign in again' })
    return reply.send({
      access_token: grant.accessToken,
      expires_in: grant.expiresIn,
      api_url: baseUrl,
      email: session.email,
      scopes: session.scopes,
      csrf: session.csrfToken,
    })
  })
}
