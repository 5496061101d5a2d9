import type { FastifyInstance, FastifyReply } from 'fastify'
import { MERCHANT_SCOPES } from '../modules/auth/index.ts'
import { type OAuthApp, scopeDescriptions, type WebSession } from '../modules/oauth/index.ts'
import { AppError } from '../platform/errors/app-error.ts'
import type { RequestContext } from '../platform/http/context.ts'
import type { Runtime } from '../platform/runtime.ts'
import type { Services } from '../services.ts'
import { type Html, hidden, html, page } from './html.ts'
import { type Form, managerGuard, signOutForm } from './manager-guard.ts'

const lines = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean)
    : []
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []
const when = (d: Date) => `${d.toISOString().replace('T', ' ').slice(0, 16)} UTC`

function fieldError(error: unknown): string | null {
  if (error instanceof AppError && error.status === 422)
    return error.errors?.map((e) => `${e.field} ${e.message}`).join('; ') ?? error.message
  return null
}

function appForm(session: WebSession, error: string | null, form: Form = {}): Html {
  const chosen = form.allowed_scopes === undefined ? [...MERCHANT_SCOPES] : list(form.allowed_scopes)
  return html`<h2>Register an app</h2>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/dashboard/apps">
  ${hidden('csrf', session.csrfToken)}
  <label for="name">App name</label><input id="name" name="name" type="text" required maxlength="100" value="${String(form.name ?? '')}">
  <label for="redirect_uris">Redirect URIs (one per line, https, or http on 127.0.0.1 for native apps)</label>
  <textarea id="redirect_uris" name="redirect_uris" rows="3" required>${String(form.redirect_uris ?? '')}</textarea>
  <fieldset><legend>Scopes the app may ask for</legend>
  ${MERCHANT_SCOPES.map(
    (s) =>
      html`<div><input type="checkbox" id="scope-${s}" name="allowed_scopes" value="${s}" ${chosen.includes(s) ? html`checked` : ''}><label style="display:inline;font-weight:400" for="scope-${s}"><code>${s}</code> ${scopeDescriptions[s]}</label></div>`,
  )}
  </fieldset>
  <fieldset><legend>Client type</legend>
  <div><input type="radio" id="type-confidential" name="client_type" value="confidential" ${form.client_type !== 'public' ? html`checked` : ''}><label style="display:inline" for="type-confidential">Confidential (a server that keeps a secret)</label></div>
  <div><input type="radio" id="type-public" name="client_type" value="public" ${form.client_type === 'public' ? html`checked` : ''}><label style="display:inline" for="type-public">Public (mobile or single-page app, PKCE, no secret)</label></div>
  </fieldset>
  <p><small>Partner status (provisioning stores for others) is granted by the platform's operator, not here.</small></p>
  <button class="primary" type="submit">Register app</button>
</form>`
}

function secretPage(app: OAuthApp, secret: string | null, heading: string) {
  return page(
    heading,
    html`<h1>${heading}</h1>
<p class="notice" role="status">Copy the secret now: it is shown only this once and stored hashed.</p>
<dl><dt>App</dt><dd>${app.name}</dd><dt>Client ID</dt><dd><code id="client-id">${app.client_id}</code></dd>
${secret ? html`<dt>Client secret</dt><dd><code class="secret" id="client-secret">${secret}</code></dd>` : html`<dt>Client secret</dt><dd>none (public client: use PKCE)</dd>`}</dl>
<p><a href="/dashboard/apps/${app.client_id}">Continue to the app</a></p>`,
    { nav: true },
  )
}

/** `/dashboard`: my apps (register, edit redirect URIs, rotate the secret) and the apps connected to my org. */
export async function dashboardPages(
  app: FastifyInstance,
  { runtime, services }: { runtime: Runtime; services: Services },
) {
  const { database } = runtime
  const oauth = services.oauth

  const guard = managerGuard(database, services)

  const notFoundPage = (reply: FastifyReply) =>
    reply
      .code(404)
      .type('text/html; charset=utf-8')
      .send(page('Not found', html`<h1>Not found</h1><p>No such app in your store.</p>`, { nav: true }))

  async function appsPage(ctx: RequestContext, session: WebSession, error: string | null, form?: Form) {
    const apps = await oauth.apps.list(ctx, { limit: 200 })
    return page(
      'My apps',
      html`${signOutForm(session)}<h1>My apps</h1>
${
  apps.data.length === 0
    ? html`<p>No apps yet.</p>`
    : html`<table><caption>Apps registered by your store</caption><thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Type</th></tr></thead><tbody>
${apps.data.map((a) => html`<tr><td><a href="/dashboard/apps/${a.client_id}">${a.name}</a></td><td><code>${a.client_id}</code></td><td>${a.client_type}${a.partner ? ', partner' : ''}</td></tr>`)}
</tbody></table>`
}
${appForm(session, error, form)}`,
      { nav: true },
    )
  }

  app.get('/dashboard/apps', async (request, reply) => {
    const who = await guard(request, reply, false)
    if (!who) return reply
    return reply.type('text/html; charset=utf-8').send(await appsPage(who.ctx, who.session, null))
  })

  app.post<{ Body: Form }>('/dashboard/apps', async (request, reply) => {
    const who = await guard(request, reply, true)
    if (!who) return reply
    const form = request.body
    try {
      const { app: created, clientSecret } = await oauth.apps.create(who.ctx, {
        name: String(form.name ?? ''),
        redirectUris: lines(form.redirect_uris),
        allowedScopes: list(form.allowed_scopes),
        public: form.client_type === 'public',
      })
      return reply
        .code(201)
        .type('text/html; charset=utf-8')
        .send(secretPage(created, clientSecret, 'App registered'))
    } catch (error) {
      const message = fieldError(error)
      if (!message) throw error
      return reply
        .code(422)
        .type('text/html; charset=utf-8')
        .send(await appsPage(who.ctx, who.session, message, form))
    }
  })

  async function appPage(
    ctx: RequestContext,
    session: WebSession,
    clientId: string,
    notice: string | null,
    error: string | null,
  ) {
    const a = await oauth.apps.get(ctx, clientId)
    return page(
      a.name,
      html`${signOutForm(session)}<h1>${a.name}</h1>
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<dl><dt>Client ID</dt><dd><code>${a.client_id}</code></dd><dt>Type</dt><dd>${a.client_type}${a.partner ? ', partner' : ''}</dd>
<dt>Allowed scopes</dt><dd>${a.allowed_scopes.map((s) => html`<code>${s}</code> `)}</dd></dl>
<h2>Redirect URIs</h2>
<form method="post" action="/dashboard/apps/${a.client_id}">
  ${hidden('csrf', session.csrfToken)}
  <label for="redirect_uris">Redirect URIs (one per line, matched exactly)</label>
  <textarea id="redirect_uris" name="redirect_uris" rows="4" required>${a.redirect_uris.join('\n')}</textarea>
  <button class="primary" type="submit">Save redirect URIs</button>
</form>
${
  a.client_type === 'confidential'
    ? html`<h2>Client secret</h2><p>Rotating replaces the secret at once: the old one stops working immediately.</p>
<form method="post" action="/dashboard/apps/${a.client_id}/rotate-secret">${hidden('csrf', session.csrfToken)}<button type="submit">Rotate secret</button></form>`
    : ''
}`,
      { nav: true },
    )
  }

  app.get<{ Params: { id: string }; Querystring: { saved?: string } }>(
    '/dashboard/apps/:id',
    async (request, reply) => {
      const who = await guard(request, reply, false)
      if (!who) return reply
      try {
        return reply
          .type('text/html; charset=utf-8')
          .send(await appPage(who.ctx, who.session, request.params.id, request.query.saved ? 'Saved.' : null, null))
      } catch (error) {
        if (error instanceof AppError && error.status === 404) return notFoundPage(reply)
        throw error
      }
    },
  )

  app.post<{ Params: { id: string }; Body: Form }>('/dashboard/apps/:id', async (request, reply) => {
    const who = await guard(request, reply, true)
    if (!who) return reply
    try {
      await oauth.apps.update(who.ctx, request.params.id, { redirectUris: lines(request.body.redirect_uris) })
      return reply
        .code(303)
        .header('location', `/dashboard/apps/${encodeURIComponent(request.params.id)}?saved=1`)
        .send()
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return notFoundPage(reply)
      const message = fieldError(error)
      if (!message) throw error
      return reply
        .code(422)
        .type('text/html; charset=utf-8')
        .send(await appPage(who.ctx, who.session, request.params.id, null, message))
    }
  })

  app.post<{ Params: { id: string }; Body: Form }>('/dashboard/apps/:id/rotate-secret', async (request, reply) => {
    const who = await guard(request, reply, true)
    if (!who) return reply
    try {
      const { app: rotated, clientSecret } = await oauth.apps.rotateSecret(who.ctx, request.params.id)
      return reply.type('text/html; charset=utf-8').send(secretPage(rotated, clientSecret, 'New client secret'))
    } catch (error) {
      if (error instanceof AppError && error.status === 404) return notFoundPage(reply)
      throw error
    }
  })

  app.get('/dashboard/connected', async (request, reply) => {
    const who = await guard(request, reply, false)
    if (!who) return reply
    const connected = await oauth.grants.listConnections(who.ctx)
    return reply.type('text/html; charset=utf-8').send(
      page(
        'Connected apps',
        html`${signOutForm(who.session)}<h1>Connected apps</h1>
${
  connected.length === 0
    ? html`<p>No apps are connected to your store.</p>`
    : html`<table><caption>Apps with access to your store</caption><thead><tr><th scope="col">App</th><th scope="col">Access</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span>Action</span></th></tr></thead><tbody>
${connected.map(
  (
    c,
  ) => html`<tr><td>${c.name}${c.partner ? ' (partner)' : ''}</td><td><ul>${c.scopes.map((s) => html`<li>${scopeDescriptions[s] ?? s}</li>`)}</ul></td><td>${when(c.connected_at)}</td><td>${when(c.last_used_at)}</td>
<td><form method="post" action="/dashboard/connected/${c.client_id}/disconnect">${hidden('csrf', who.session.csrfToken)}<button type="submit" aria-label="Disconnect ${c.name}">Disconnect</button></form></td></tr>`,
)}
</tbody></table>`
}`,
        { nav: true },
      ),
    )
  })

  app.post<{ Params: { clientId: string }; Body: Form }>(
    '/dashboard/connected/:clientId/disconnect',
    async (request, reply) => {
      const who = await guard(request, reply, true)
      if (!who) return reply
      try {
        await oauth.grants.disconnect(who.ctx, request.params.clientId)
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error
      }
      return reply.code(303).header('location', '/dashboard/connected').send()
    },
  )
}
