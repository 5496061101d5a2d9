/** RFC 6749 §5.2 error codes (plus RFC 6750 §3.1 for resource errors) as the protocol endpoints answer them. */
type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_token_type'
  | 'temporarily_unavailable'

export class OAuthError extends Error {
  readonly status: number
  readonly headers: Record<string, string>

  constructor(
    readonly code: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(description)
    this.name = 'OAuthError'
    // `invalid_client` is a 401 (docs/decisions.md "OAuth 2.0"); everything else RFC 6749 §5.2 makes a 400.
    this.status = options.status ?? (code === 'invalid_client' ? 401 : 400)
    this.headers = options.headers ?? {}
  }
}

export const invalidRequest = (description: string) => new OAuthError('invalid_request', description)
export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description)
export const invalidScope = (description: string) => new OAuthError('invalid_scope', description)
