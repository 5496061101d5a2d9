import type { FastifyRequest } from 'fastify'
import type { AppsService } from './apps.service.ts'
import { invalidRequest, OAuthError } from './errors.ts'
import type { TokenActionBody } from './oauth.schemas.ts'
import type { AppRow } from './oauth.tables.ts'

/** Both the token body and the revoke/introspect body carry these. */
type ClientParams = Pick<TokenActionBody, 'client_id' | 'client_secret'>

/** RFC 6749 §2.3.1: HTTP Basic with the form-urlencoded client id and secret. */
function parseBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header.trim())
  if (!match) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) }
  } catch {
    return null
  }
}

/**
 * Authenticates the client of a token, revoke or introspection request: a confidential client with its secret
 * in HTTP Basic or the body (never both, RFC 6749 §2.3), a public client by its id alone.
 */
export async function authenticateClient(
  request: FastifyRequest,
  params: ClientParams,
  apps: AppsService,
): Promise<AppRow> {
  const header = request.headers.authorization
  let clientId = params.client_id
  let secret = params.client_secret
  const usedBasic = typeof header === 'string' && /^Basic\s/i.test(header)
  const failed = (description: string) =>
    new OAuthError(
      'invalid_client',
      description,
      usedBasic ? { headers: { 'www-authenticate': 'Basic realm="opentill"' } } : {},
    )
  if (usedBasic) {
    const basic = parseBasic(header!)
    if (!basic) throw failed('the Authorization header is not valid HTTP Basic')
    if (secret !== undefined)
      throw invalidRequest('use one client authentication method, not HTTP Basic and client_secret together')
    if (clientId !== undefined && clientId !== basic.id)
      throw invalidRequest('client_id differs from the HTTP Basic user')
    clientId = basic.id
    secret = basic.secret
  }
  if (!clientId) throw failed('client authentication failed: no client_id')
  const app = await apps.findClient(clientId)
  if (!app) throw failed('client authentication failed')
  if (app.confidential) {
    if (!secret || !apps.secretMatches(app, secret)) throw failed('client authentication failed')
  } else if (secret) {
    // A public client has no secret; one that sends a secret is not who it claims to be.
    throw failed('client authentication failed: this client is public and has no secret')
  }
  return app
}
