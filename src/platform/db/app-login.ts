import { createHmac } from 'node:crypto'
import pg from 'pg'
import { APP_ROLE } from './database.ts'

/** The role the app logs in as: a member of the row-level-security role only, never the owner. */
export const APP_LOGIN = 'opentill_login'

/**
 * The role DBOS (the automations' workflow engine) logs in as: privileges on its own schema, nothing else; never
 * the owner (docs/automations.md "Operating it").
 */
export const DBOS_LOGIN = 'opentill_dbos'

/** Makes sure the app's login role exists (see `ensureLogin`); answers the URL the app connects with. */
export function ensureAppLogin(ownerUrl: string): Promise<string> {
  return ensureLogin(ownerUrl, APP_LOGIN, APP_ROLE)
}

/** Makes sure DBOS's login role exists (see `ensureLogin`); answers the URL DBOS connects with. */
export function ensureDbosLogin(ownerUrl: string): Promise<string> {
  return ensureLogin(ownerUrl, DBOS_LOGIN, null)
}

/**
 * Makes sure a login role exists with the password this deployment derives, a member of `memberOf` only (or of
 * nothing), and answers the URL that logs in as it. The password is derived from the owner's credentials and server
 * (HMAC of the URL without its database: a role belongs to the whole cluster, so every database of one owner must
 * derive the same), so every instance computes it without storing another secret, and it changes when the owner's
 * password does. Runs as the owner, after migrations (which create APP_ROLE); the owner needs CREATEROLE.
 */
async function ensureLogin(ownerUrl: string, login: string, memberOf: string | null): Promise<string> {
  const url = new URL(ownerUrl)
  const cluster = new URL(ownerUrl)
  cluster.pathname = '/'
  cluster.search = ''
  const password = createHmac('sha256', cluster.toString()).update(login).digest('base64url')
  url.username = login
  url.password = password
  const loginUrl = url.toString()
  // Usually the role is already there with this password: one login proves it, and no catalog row is written.
  if (await canLogIn(loginUrl)) return loginUrl
  const owner = new pg.Client({ connectionString: ownerUrl })
  await owner.connect()
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        // Roles are cluster-wide: databases and instances starting at once race to create or update it, and
        // PostgreSQL answers the loser of two updates of one role "tuple concurrently updated".
        await owner.query(`DO $$
          BEGIN
            CREATE ROLE ${login} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE${memberOf ? ` IN ROLE ${memberOf}` : ''};
          EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
          END $$`)
        await owner.query(`ALTER ROLE ${login} WITH LOGIN PASSWORD ${owner.escapeLiteral(password)}`)
        return loginUrl
      } catch (error) {
        if (attempt >= 5 || !/concurrently updated/.test((error as Error).message)) throw error
        await new Promise((done) => setTimeout(done, 50 * attempt))
      }
    }
  } finally {
    await owner.end()
  }
}

async function canLogIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    return true
  } catch {
    return false
  } finally {
    await client.end().catch(() => {})
  }
}
