import type { Database, Queryable } from './db/database.ts'

const names = new WeakMap<Database, Promise<string>>()

/**
 * This deployment's name on a shared Redis: the first signing key's id, which every instance of one database
 * shares and no other database has, so separate deployments (and test databases) never mix their rate-limit
 * buckets, catalog versions or kitchen feeds. Read once per database handle.
 */
export function deploymentNameOf(database: Database): Promise<string> {
  let name = names.get(database)
  if (!name) {
    name = database.unscoped(firstKeyId)
    names.set(database, name)
  }
  return name
}

async function firstKeyId(q: Queryable): Promise<string> {
  const result = await q.query<{ kid: string }>('SELECT kid FROM signing_keys ORDER BY created_at, kid LIMIT 1')
  return result.rows[0]?.kid ?? 'default'
}
