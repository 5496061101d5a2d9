import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Database, Queryable } from '../db/database.ts'
import { newId } from './ids.ts'
import { rowBinding, type SecretBox } from './secret-box.ts'

/** A private JWK as stored: sealed (`{ sealed: "enc:v1:…" }`) when SECRETS_KEY is set, as is otherwise. */
type StoredJwk = JWK | { sealed: string }

/** A signing key is bound to its row (no org: the keys are the deployment's). */
const bindingOf = (kid: string) => rowBinding('signing_keys', '', kid)

function sealJwk(secrets: SecretBox, kid: string, jwk: JWK): StoredJwk {
  return secrets.encrypts ? { sealed: secrets.seal(JSON.stringify(jwk), bindingOf(kid)) } : jwk
}

function openJwk(secrets: SecretBox, kid: string, stored: StoredJwk): JWK {
  if ('sealed' in stored && typeof stored.sealed === 'string')
    return JSON.parse(secrets.open(stored.sealed, bindingOf(kid))) as JWK
  // A key stored whole is refused, like any unsealed value, once the deployment's secrets are all sealed.
  if (secrets.sealedOnly)
    throw new Error(`the signing key ${kid} is not sealed and bound to its row, and SECRETS_KEY requires it`)
  return stored as JWK
}

interface SigningKey {
  kid: string
  privateKey: CryptoKey
}

/**
 * ES256 keys shared by every instance through the database. The newest active key signs; retired keys stay
 * in the JWKS so tokens they signed verify until they expire.
 */
export class SigningKeys {
  private constructor(
    readonly current: SigningKey,
    readonly publicJwks: { keys: JWK[] },
  ) {}

  /** The public keys alone (the JWKS endpoint): nothing to decrypt. */
  static async readPublicJwks(db: Database): Promise<{ keys: JWK[] }> {
    const result = await db.unscoped((q) =>
      q.query<{ public_jwk: JWK }>('SELECT public_jwk FROM signing_keys ORDER BY created_at DESC'),
    )
    return { keys: result.rows.map((r) => r.public_jwk) }
  }

  /** Seals every private key with the active SECRETS_KEY (owner's connection, `opentill rotate-secrets-key`). */
  static async reseal(q: Queryable, secrets: SecretBox): Promise<number> {
    const { rows } = await q.query<{ kid: string; private_jwk: StoredJwk }>(
      'SELECT kid, private_jwk FROM signing_keys FOR UPDATE',
    )
    let changed = 0
    for (const row of rows) {
      const stored = 'sealed' in row.private_jwk ? String(row.private_jwk.sealed) : ''
      if (stored && !secrets.stale(stored)) continue
      const resealed = sealJwk(secrets, row.kid, openJwk(secrets, row.kid, row.private_jwk))
      await q.query('UPDATE signing_keys SET private_jwk = $2 WHERE kid = $1', [row.kid, resealed])
      changed++
    }
    return changed
  }

  /** The active key (made on first start), its private half sealed at rest by `secrets` (SECRETS_KEY). */
  static async load(db: Database, secrets: SecretBox): Promise<SigningKeys> {
    const rows = await db.unscoped(async (q) => {
      // Concurrent first starts must agree on one key: the lock serialises the check-then-create.
      await q.query('SELECT pg_advisory_xact_lock(7241865325823965)')
      let result = await q.query<{ kid: string; private_jwk: StoredJwk; public_jwk: JWK; retired_at: Date | null }>(
        'SELECT kid, private_jwk, public_jwk, retired_at FROM signing_keys ORDER BY created_at DESC',
      )
      if (!result.rows.some((r) => r.retired_at === null)) {
        const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
        const kid = newId('key')
        const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }
        const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }
        await q.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
          kid,
          sealJwk(secrets, kid, privateJwk),
          publicJwk,
        ])
        result = await q.query(
          'SELECT kid, private_jwk, public_jwk, retired_at FROM signing_keys ORDER BY created_at DESC',
        )
      }
      return result.rows
    })
    const active = rows.find((r) => r.retired_at === null)!
    const privateKey = (await importJWK(openJwk(secrets, active.kid, active.private_jwk), 'ES256')) as CryptoKey
    return new SigningKeys({ kid: active.kid, privateKey }, { keys: rows.map((r) => r.public_jwk) })
  }
}
