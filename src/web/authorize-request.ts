import { isRegistered, isValidS256Challenge, parseScope, unknownScopes, withParams } from '../modules/oauth/index.ts'
import type { Services } from '../services.ts'

/** The parameters the authorization endpoint reads (RFC 6749 §4.1.1, RFC 7636 §4.3); others are ignored. */
export interface AuthorizeParams {
  response_type?: string
  client_id?: string
  redirect_uri?: string
  scope?: string
  state?: string
  code_challenge?: string
  code_challenge_method?: string
}

export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const

type Checked =
  /** Unknown client or unregistered redirect URI: an error page, never a redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'page'; status: number; message: string }
  /** An error the client learns at its redirect URI. */
  | { kind: 'redirect'; location: string }
  | {
      kind: 'ok'
      app: { id: string; name: string; orgId: string; allowedScopes: string[]; partner: boolean }
      redirectUri: string
      requested: string[]
      state: string | undefined
      codeChallenge: string | null
    }

/** Picks the known parameters, dropping empty ones and refusing repeated ones (RFC 6749 §3.1). */
export function pickParams(source: Record<string, unknown>): AuthorizeParams | { repeated: string } {
  const params: Record<string, string> = {}
  for (const name of AUTHORIZE_PARAMS) {
    const value = source[name]
    if (Array.isArray(value)) return { repeated: name }
    if (typeof value === 'string' && value !== '') params[name] = value
  }
  return params
}

/** Validates an authorization request in RFC 6749 §4.1.2.1's order: client and redirect URI first. */
export async function checkAuthorizeRequest(
  services: Services,
  issuer: string,
  params: AuthorizeParams,
): Promise<Checked> {
  if (!params.client_id)
    return { kind: 'page', status: 400, message: 'The request names no application (client_id is missing).' }
  const app = await services.oauth.apps.findClient(params.client_id)
  if (!app) return { kind: 'page', status: 400, message: 'The application asking for access is not registered.' }
  if (!params.redirect_uri || !isRegistered(app.redirect_uris, params.redirect_uri)) {
    return {
      kind: 'page',
      status: 400,
      message: 'The redirect address in this request is not registered for the application.',
    }
  }
  const redirectUri = params.redirect_uri
  const fail = (error: string, description: string): Checked => ({
    kind: 'redirect',
    location: withParams(redirectUri, { error, error_description: description, state: params.state, iss: issuer }),
  })
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code')
  if (params.state !== undefined && params.state.length > 1024) return fail('invalid_request', 'state is too long')
  // RFC 7636 §4.3 makes an absent method mean `plain`, which RFC 9700 §2.1.1 and docs/decisions.md refuse.
  if (params.code_challenge !== undefined || params.code_challenge_method !== undefined) {
    if (params.code_challenge_method !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported)')
    if (!params.code_challenge || !isValidS256Challenge(params.code_challenge)) {
      return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier')
    }
  } else if (!app.confidential) {
    return fail('invalid_request', 'public clients must use PKCE (code_challenge with S256)')
  }
  const requested = parseScope(params.scope)
  if (requested.length === 0) return fail('invalid_scope', 'scope is required')
  const unknown = unknownScopes(requested)
  if (unknown.length) return fail('invalid_scope', `unknown scopes: ${unknown.join(' ')}`)
  return {
    kind: 'ok',
    app: { id: app.id, name: app.name, orgId: app.org_id, allowedScopes: app.allowed_scopes, partner: app.partner },
    redirectUri,
    requested,
    state: params.state,
    codeChallenge: params.code_challenge ?? null,
  }
}
