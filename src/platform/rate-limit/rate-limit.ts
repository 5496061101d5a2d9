import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Runtime } from '../runtime.ts'
import { CREDENTIAL_LIMITS } from './credential-limits.ts'
import { take } from './enforce.ts'
import type { RateLimitStore } from './gcra.ts'

interface RateLimitOptions {
  runtime: Runtime
  /** Routes that take an e-mail and password (`email` in the body). */
  loginRoutes: readonly string[]
  /** OAuth token endpoints (client id in HTTP Basic or `client_id`). */
  tokenRoutes: readonly string[]
}

/** The account a token request is for: the HTTP Basic user or `client_id` (RFC 6749 §2.3.1). */
function clientIdOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  const basic = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header.trim()) : null
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    return colon > 0 ? decoded.slice(0, colon) : null
  }
  const body = request.body as Record<string, unknown> | undefined
  return typeof body?.client_id === 'string' ? body.client_id : null
}

/**
 * Per-account plus per-address limits on the login and token endpoints against credential guessing. The per-org
 * limits by plan (SPEC (docs/decisions.md) "Rate limits", GCRA token bucket, X-RateLimit-* headers) are taken by the REST guard and
 * the GraphQL context through admission.ts, on the same buckets.
 */
export const rateLimit = fp(
  async (app: FastifyInstance, options: RateLimitOptions) => {
    const { runtime } = options
    const store = runtime.rateLimitStore
    const login = new Set(options.loginRoutes)
    const token = new Set(options.tokenRoutes)

    // Authenticated requests take their org's token in the guard (platform/http/authenticate.ts), together with
    // the revocation check in one Redis round trip; this hook covers the credential endpoints, which have no org.
    app.addHook('onRequest', async (request, reply) => {
      const url = request.routeOptions.url ?? ''
      if (request.ctx) return
      if (login.has(url)) {
        await take(store, reply, `login:ip:${request.ip}`, CREDENTIAL_LIMITS.loginPerAddress, 'from this address')
      } else if (token.has(url)) {
        await take(store, reply, `token:ip:${request.ip}`, CREDENTIAL_LIMITS.tokenPerAddress, 'from this address')
      }
    })

    // The account is in the body, which is parsed only by now.
    app.addHook('preHandler', async (request, reply) => {
      const url = request.routeOptions.url ?? ''
      if (login.has(url)) {
        const email = (request.body as { email?: unknown } | undefined)?.email
        if (typeof email === 'string') await loginAccountLimit(store, email, reply)
      } else if (token.has(url)) {
        const clientId = clientIdOf(request)
        if (clientId)
          await take(store, reply, `token:client:${clientId}`, CREDENTIAL_LIMITS.tokenPerClient, 'for this client')
      }
    })
  },
  { name: 'opentill-rate-limit', dependencies: ['opentill-authenticate'] },
)

/** The per-account login budget, shared by the API login and the web app's sign-in. */
export function loginAccountLimit(store: RateLimitStore, email: string, reply: Parameters<typeof take>[1]) {
  return take(
    store,
    reply,
    `login:account:${email.trim().toLowerCase()}`,
    CREDENTIAL_LIMITS.loginPerAccount,
    'for this account',
  )
}

export function loginAddressLimit(store: RateLimitStore, ip: string, reply: Parameters<typeof take>[1]) {
  return take(store, reply, `login:ip:${ip}`, CREDENTIAL_LIMITS.loginPerAddress, 'from this address')
}

/** Password reset requests, per address and per e-mail (registered or not: the limit says nothing either way). */
export async function passwordResetLimit(store: RateLimitStore, ip: string, email: string): Promise<void> {
  await take(store, null, `reset:ip:${ip}`, CREDENTIAL_LIMITS.resetPerAddress, 'from this address')
  await take(
    store,
    null,
    `reset:account:${email.trim().toLowerCase()}`,
    CREDENTIAL_LIMITS.resetPerAccount,
    'for this e-mail',
  )
}

/** The till's unauthenticated endpoints (pairing, PIN sign-in), per address. */
export function tillLimit(store: RateLimitStore, ip: string, kind: 'pairing' | 'pin'): Promise<void> {
  const limit = kind === 'pairing' ? CREDENTIAL_LIMITS.pairingPerAddress : CREDENTIAL_LIMITS.pinPerAddress
  return take(store, null, `${kind}:ip:${ip}`, limit, 'from this address')
}
