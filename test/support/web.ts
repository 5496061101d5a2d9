import type { FastifyInstance } from 'fastify'
import { freeLoopbackPort } from '../../src/platform/net/free-port.ts'
import { buildWebApp } from '../../src/web/index.ts'
import { startTestApp, type TestApp } from './harness.ts'

export interface ListeningApps {
  app: TestApp
  web: FastifyInstance
  /** BASE_URL, where the API listens (also the OAuth issuer). */
  baseUrl: string
  /** APP_URL, where the consent screen and dashboard listen. */
  appUrl: string
  close(): Promise<void>
}

/**
 * The API and the web app listening on 127.0.0.1 ports, for real HTTP clients and the browser. The ports must be
 * known before the app is built (BASE_URL, APP_URL), so another process can take one in between: a start that
 * meets EADDRINUSE is undone and tried on new ports.
 */
export async function startListeningApps(env: Record<string, string> = {}): Promise<ListeningApps> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await listenOnFreePorts(env)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error
    }
  }
}

async function listenOnFreePorts(env: Record<string, string>): Promise<ListeningApps> {
  const [port, appPort] = [await freeLoopbackPort(), await freeLoopbackPort()]
  const baseUrl = `http://127.0.0.1:${port}`
  const appUrl = `http://127.0.0.1:${appPort}`
  const app = await startTestApp({
    PORT: String(port),
    APP_PORT: String(appPort),
    BASE_URL: baseUrl,
    APP_URL: appUrl,
    ...env,
  })
  let web: FastifyInstance | undefined
  const close = async () => {
    await web?.close()
    await app.close()
  }
  try {
    await app.api.listen({ port, host: '127.0.0.1' })
    web = await buildWebApp(app.runtime, app.services)
    await web.listen({ port: appPort, host: '127.0.0.1' })
    return { app, web, baseUrl, appUrl, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** A cookie jar over fetch that does not follow redirects, so tests see each 303. */
export class Browser {
  private readonly cookies = new Map<string, string>()

  constructor(private readonly origin: string) {}

  async request(
    method: 'GET' | 'POST',
    path: string,
    form?: Record<string, string | string[]>,
    /** Headers of a request a script makes, and its raw body (a form is sent as the form). */
    scripted: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...scripted.headers }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body = scripted.body
    if (form) {
      const params = new URLSearchParams()
      for (const [key, value] of Object.entries(form))
        for (const v of Array.isArray(value) ? value : [value]) params.append(key, v)
      body = params.toString()
      headers['content-type'] = 'application/x-www-form-urlencoded'
    }
    const url = path.startsWith('http') ? path : `${this.origin}${path}`
    const response = await fetch(url, { method, headers, body, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  get(path: string) {
    return this.request('GET', path)
  }

  post(path: string, form: Record<string, string | string[]>) {
    return this.request('POST', path, form)
  }

  /** Signs in through the sign-in form (CSRF token included). */
  async signIn(email: string, password: string): Promise<Response> {
    const form = await this.get('/login')
    const csrf = hiddenValue(await form.text(), 'csrf')
    return this.post('/login', { csrf, email, password, return_to: '/dashboard' })
  }

  /**
   * Runs the consent screen for an authorization URL and answers with `decision`; returns the final
   * redirect's Location (the client's callback with `code` or `error`).
   */
  async consent(authorizeUrl: string, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
    const page = await this.get(authorizeUrl)
    if (page.status === 303) return new URL(page.headers.get('location')!, this.origin)
    const html = await page.text()
    if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`)
    const form: Record<string, string> = { decision }
    for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
      form[match[1]] = unescapeHtml(match[2])
    const answer = await this.post('/oauth/authorize', form)
    if (answer.status !== 303) throw new Error(`consent POST answered ${answer.status}: ${await answer.text()}`)
    return new URL(answer.headers.get('location')!)
  }
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

export function hiddenValue(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)
  if (!match) throw new Error(`no hidden field ${name} in the page`)
  return unescapeHtml(match[1])
}

/** An authorization URL on the web app. */
export function authorizeUrl(appUrl: string, params: Record<string, string | undefined>): string {
  const url = new URL('/oauth/authorize', appUrl)
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value)
  return url.toString()
}
