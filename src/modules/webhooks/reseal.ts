import type { SecretBox } from '../../platform/crypto/secret-box.ts'
import type { Queryable } from '../../platform/db/database.ts'
import * as repo from './endpoints.repo.ts'

/**
 * Seals every webhook secret (current and previous) with the active SECRETS_KEY: those under the previous key and
 * those stored before encryption was turned on. Run on the owner's connection, in one transaction, by
 * `opentill rotate-secrets-key`; answers how many endpoints changed.
 */
export async function resealWebhookSecrets(q: Queryable, secrets: SecretBox): Promise<number> {
  let changed = 0
  for (const row of await repo.allStoredSecrets(q)) {
    if (!secrets.stale(row.secret) && (row.previous_secret === null || !secrets.stale(row.previous_secret))) continue
    await repo.setStoredSecrets(q, {
      ...row,
      secret: secrets.seal(secrets.open(row.secret)),
      previous_secret: row.previous_secret === null ? null : secrets.seal(secrets.open(row.previous_secret)),
    })
    changed++
  }
  return changed
}
