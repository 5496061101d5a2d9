import type { Database, Queryable } from './db/database.ts'

/**
 * This deployment's name on a shared Redis: the first signing key's id, which every instance of one database
 * shares and no other database has, so separate deployments (and test databases) never mix their rate-limit
 * buckets, catalog versions or kitchen feeds. Read once, when the runtime opens (Runtime.deploymentName).
 */
export function readDeploymentName(database: Database): Promise<string> {
  return database.unscoped(firstKeyId)
}

async function firstKeyId(q: Queryable): Promise<string> {
  const result = await q.query<{ kid: string }>('SELECT kid FROM signing_keys ORDER BY created_at, kid LIMIT 1')
  return result.rows[0]?.kid ?? 'default'
}
