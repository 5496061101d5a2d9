import { rowBinding, type SecretBox } from '../../platform/crypto/secret-box.ts'
import type { Queryable } from '../../platform/db/database.ts'
import * as repo from './endpoints.repo.ts'

/**
 * Seals every webhook secret (current and previous) with the active SECRETS_KEY, bound to its endpoint: those under
 * the previous key, those sealed before values were bound to their rows, and those stored before encryption was
 * turned on. Run on the owner's connection, in one transaction, by
 * `opentill rotate-secrets-key`; answers how many endpoints changed.
 */
export async function resealWebhookSecrets(q: Queryable, secrets: SecretBox): Promise<number> {
  let changed = 0
  for (const row of await repo.allStoredSecrets(q)) {
    if (!secrets.stale(row.secret) && (row.previous_secret === null || !secrets.stale(row.previous_secret))) continue
    const binding = rowBinding(repo.WEBHOOK_SECRETS_TABLE, row.org_id, row.id)
    const reseal = (stored: string) => secrets.seal(secrets.open(stored, binding), binding)
    await repo.setStoredSecrets(q, {
      ...row,
      secret: reseal(row.secret),
      previous_secret: row.previous_secret === null ? null : reseal(row.previous_secret),
    })
    changed++
  }
  return changed
}
