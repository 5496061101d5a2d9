import { randomBytes } from 'node:crypto'
import type {} from '@fastify/cookie'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { constantTimeEqual } from '../platform/crypto/tokens.ts'

export const SESSION_COOKIE = 'opentill_session'
export const LOGIN_CSRF_COOKIE = 'opentill_login_csrf'

/**
 * Every page: no framing (docs/decisions.md "OAuth 2.0": `frame-ancestors 'none'`, clickjacking on the consent
 * screen), no scripts (but this origin's, where a page says so), no caching, no referrer (authorization URLs carry state). No `form-action`: Chrome applies
 * it to the redirect after the consent POST, which goes to the app's own redirect URI.
 */
const BASE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'"

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    // A page that runs scripts of this origin (the Reports charts) sets its own, as strict otherwise.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', BASE_CSP)
    reply
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
    // The back office's hashed assets say how long they keep; everything else is never cached.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store')
    return payload
  })
}

export function cookieOptions(secure: boolean, maxAgeS: number) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: maxAgeS }
}

/** The sign-in form's CSRF token: a double-submit cookie, as there is no session yet to hold one. */
export function loginCsrf(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = request.cookies[LOGIN_CSRF_COOKIE]
  if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing
  const token = randomBytes(24).toString('base64url')
  reply.setCookie(LOGIN_CSRF_COOKIE, token, cookieOptions(secure, 3600))
  return token
}

export function csrfMatches(expected: string | undefined, given: unknown): boolean {
  return (
    typeof expected === 'string' &&
    typeof given === 'string' &&
    expected.length > 0 &&
    constantTimeEqual(expected, given)
  )
}

/**
 * A place on this site to return to after sign-in, as a path: the value is resolved against APP_URL the way a
 * browser would (which drops tabs and newlines, so `/\t/evil.example` is `//evil.example`, and resolves dot
 * segments, so `/.//evil.example` is too), and anything that is not of APP_URL's origin, whose resolved path would
 * read as another host (`//…`), or that carries a control character, goes to the dashboard instead.
 */
export function safeReturnTo(value: unknown, appUrl: string): string {
  const fallback = '/dashboard'
  if (typeof value !== 'string' || value.length >= 4000 || !value.startsWith('/')) return fallback
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return fallback
  let resolved: URL
  try {
    resolved = new URL(value, appUrl)
  } catch {
    return fallback
  }
  if (resolved.origin !== new URL(appUrl).origin || resolved.pathname.startsWith('//')) return fallback
  return `${resolved.pathname}${resolved.search}${resolved.hash}`
}

/** Where a redirect after sign-in goes: the safe path as an absolute URL on APP_URL, never a bare path to guess. */
export function returnLocation(value: unknown, appUrl: string): string {
  return new URL(safeReturnTo(value, appUrl), appUrl).href
}
