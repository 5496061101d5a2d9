import type { Queryable } from '../../platform/db/database.ts'
import { type AppRow, appColumns } from './oauth.tables.ts'

/** The org an app belongs to, across orgs (SECURITY DEFINER): the next step is scoped to it. */
export async function orgOfApp(q: Queryable, clientId: string): Promise<string | null> {
  const result = await q.query<{ org_id: string | null }>('SELECT oauth_org_of_app($1) AS org_id', [clientId])
  return result.rows[0]?.org_id ?? null
}

export async function insertApp(
  q: Queryable,
  app: {
    id: string
    orgId: string
    name: string
    redirectUris: string[]
    allowedScopes: string[]
    confidential: boolean
    partner: boolean
    partnerPlans: string[]
    secretHash: string | null
    createdBy: string | null
  },
): Promise<AppRow> {
  const result = await q.query<AppRow>(
    `INSERT INTO oauth_apps
       (id, org_id, name, redirect_uris, allowed_scopes, confidential, partner, partner_plans, secret_hash, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${appColumns}`,
    [
      app.id,
      app.orgId,
      app.name,
      app.redirectUris,
      app.allowedScopes,
      app.confidential,
      app.partner,
      app.partnerPlans,
      app.secretHash,
      app.createdBy,
    ],
  )
  return result.rows[0]
}

export async function appById(q: Queryable, orgId: string, id: string): Promise<AppRow | undefined> {
  const result = await q.query<AppRow>(`SELECT ${appColumns} FROM oauth_apps WHERE org_id = $1 AND id = $2`, [
    orgId,
    id,
  ])
  return result.rows[0]
}

export async function listApps(
  q: Queryable,
  orgId: string,
  afterId: string | undefined,
  limit: number,
): Promise<AppRow[]> {
  const result = await q.query<AppRow>(
    `SELECT ${appColumns} FROM oauth_apps WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    [orgId, afterId ?? null, limit],
  )
  return result.rows
}

/** What an update of an app changes; what is left out stays. */
export interface AppChanges {
  name?: string
  redirectUris?: string[]
  allowedScopes?: string[]
}

export async function updateApp(
  q: Queryable,
  orgId: string,
  id: string,
  fields: AppChanges,
): Promise<AppRow | undefined> {
  const result = await q.query<AppRow>(
    `UPDATE oauth_apps SET name = coalesce($3, name), redirect_uris = coalesce($4, redirect_uris),
       allowed_scopes = coalesce($5, allowed_scopes), version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${appColumns}`,
    [orgId, id, fields.name ?? null, fields.redirectUris ?? null, fields.allowedScopes ?? null],
  )
  return result.rows[0]
}

export async function setSecretHash(
  q: Queryable,
  orgId: string,
  id: string,
  secretHash: string,
): Promise<AppRow | undefined> {
  const result = await q.query<AppRow>(
    `UPDATE oauth_apps SET secret_hash = $3, version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND confidential RETURNING ${appColumns}`,
    [orgId, id, secretHash],
  )
  return result.rows[0]
}
