import { type CryptoKey, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import type { Database } from '../db/database.ts'
import { newId } from './ids.ts'

export interface SigningKey {
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

  static async load(db: Database): Promise<SigningKeys> {
    const rows = await db.unscoped(async (q) => {
      // Concurrent first starts must agree on one key: the lock serialises the check-then-create.
      await q.query('SELECT pg_advisory_xact_lock(7241865325823965)')
      let result = await q.query<{ kid: string; private_jwk: JWK; public_jwk: JWK; retired_at: Date | null }>(
        'SELECT kid, private_jwk, public_jwk, retired_at FROM signing_keys ORDER BY created_at DESC',
      )
      if (!result.rows.some((r) => r.retired_at === null)) {
        const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
        const kid = newId('key')
        const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' }
        const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }
        await q.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
          kid,
          privateJwk,
          publicJwk,
        ])
        result = await q.query(
          'SELECT kid, private_jwk, public_jwk, retired_at FROM signing_keys ORDER BY created_at DESC',
        )
      }
      return result.rows
    })
    const active = rows.find((r) => r.retired_at === null)!
    const privateKey = (await importJWK(active.private_jwk, 'ES256')) as CryptoKey
    return new SigningKeys({ kid: active.kid, privateKey }, { keys: rows.map((r) => r.public_jwk) })
  }
}
