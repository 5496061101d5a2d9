import { createLocalJWKSet, type JWTPayload, jwtVerify, SignJWT } from 'jose'
import type { SigningKeys } from './signing-keys.ts'

export const ACCESS_TOKEN_AUDIENCE = 'opentill-api'
/** RFC 9068: JWT access tokens are typed so an ID token or other JWT cannot stand in for one. */
const ACCESS_TOKEN_TYPE = 'at+jwt'

interface AccessClaims {
  sub: string
  orgId: string
  scopes: string[]
  /** The session or grant the token derives from; revoking it revokes the token. */
  sid: string
  clientId: string
  actorKind: 'user' | 'app'
  userId: string | null
  /** The register of the till the session was opened on (a PIN sign-in on a paired device). */
  registerId?: string | null
}

export interface VerifiedAccess extends AccessClaims {
  exp: number
  /** The scopes as a set, built once per token rather than per request. */
  scopeSet: ReadonlySet<string>
}

interface Payload extends JWTPayload {
  org_id?: string
  scope?: string
  sid?: string
  client_id?: string
  act?: 'user' | 'app'
  uid?: string | null
  reg?: string
}

/** Signs and verifies ES256 access tokens; verification results are cached by token until they expire. */
export class AccessTokens {
  private readonly jwks: ReturnType<typeof createLocalJWKSet>
  private readonly cache = new Map<string, VerifiedAccess>()

  constructor(
    private readonly keys: SigningKeys,
    private readonly issuer: string,
    readonly ttlSeconds: number,
  ) {
    this.jwks = createLocalJWKSet(keys.publicJwks)
  }

  async sign(claims: AccessClaims): Promise<string> {
    return new SignJWT({
      org_id: claims.orgId,
      scope: claims.scopes.join(' '),
      sid: claims.sid,
      client_id: claims.clientId,
      act: claims.actorKind,
      uid: claims.userId,
      ...(claims.registerId ? { reg: claims.registerId } : {}),
    })
      .setProtectedHeader({ alg: 'ES256', kid: this.keys.current.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.issuer)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setSubject(claims.sub)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.keys.current.privateKey)
  }

  /** Returns the verified claims, or null for anything that is not a valid, unexpired access token of ours. */
  async verify(token: string): Promise<VerifiedAccess | null> {
    const nowS = Date.now() / 1000
    const cached = this.cache.get(token)
    if (cached) {
      if (cached.exp > nowS) return cached
      this.cache.delete(token)
    }
    let payload: Payload
    try {
      const result = await jwtVerify<Payload>(token, this.jwks, {
        issuer: this.issuer,
        audience: ACCESS_TOKEN_AUDIENCE,
        typ: ACCESS_TOKEN_TYPE,
        algorithms: ['ES256'],
      })
      payload = result.payload
    } catch {
      return null
    }
    if (!payload.sub || !payload.sid || !payload.exp || typeof payload.client_id !== 'string') return null
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : []
    const verified: VerifiedAccess = {
      sub: payload.sub,
      // A token without an org is verified but scoped to nothing; the GraphQL API names this case.
      orgId: typeof payload.org_id === 'string' ? payload.org_id : '',
      scopes,
      scopeSet: new Set(scopes),
      sid: payload.sid,
      clientId: payload.client_id,
      actorKind: payload.act === 'app' ? 'app' : 'user',
      userId: typeof payload.uid === 'string' ? payload.uid : null,
      registerId: typeof payload.reg === 'string' ? payload.reg : null,
      exp: payload.exp,
    }
    if (this.cache.size >= 10_000) this.cache.clear()
    this.cache.set(token, verified)
    return verified
  }
}
