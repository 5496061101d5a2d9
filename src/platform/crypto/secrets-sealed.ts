import type { Database, Queryable } from '../db/database.ts'
import type { SecretBox } from './secret-box.ts'

/**
 * Records, on the owner's connection, that every stored secret is now sealed and bound to its row (`opentill
 * rotate-secrets-key`, after resealing them all in the same transaction): from then on unsealed values are refused.
 */
export async function recordAllSealed(q: Queryable, secrets: SecretBox): Promise<void> {
  const keyId = secrets.keyId
  if (keyId === undefined) throw new Error('secrets are sealed only under a SECRETS_KEY')
  await q.query(
    `INSERT INTO secrets_sealed (key_id) VALUES ($1)
     ON CONFLICT (only_row) DO UPDATE SET key_id = EXCLUDED.key_id, sealed_at = now()`,
    [keyId],
  )
}

/**
 * The box the app opens secrets with: one that refuses unsealed values once they have all been sealed, and a start
 * refused at once when the key that sealed them is neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS.
 */
export async function boxForDeployment(database: Database, secrets: SecretBox): Promise<SecretBox> {
  if (!secrets.encrypts) return secrets
  const result = await database.unscoped((q) => q.query<{ key_id: string }>('SELECT key_id FROM secrets_sealed'))
  const sealedWith = result.rows[0]?.key_id
  if (sealedWith === undefined) return secrets
  if (!secrets.holds(sealedWith))
    throw new Error(
      `the stored secrets were sealed with key ${sealedWith}, which neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS is`,
    )
  return secrets.requireSealed()
}
