import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'

export interface LocationRow {
  id: string
  org_id: string
  name: string
  address_line1: string
  address_line2: string
  city: string
  region: string
  postal_code: string
  country: string | null
  timezone: string
  is_active: boolean
  version: number
  created_at: Date
  updated_at: Date
}

export interface LocationWrite {
  name?: string
  address_line1?: string
  address_line2?: string
  city?: string
  region?: string
  postal_code?: string
  country?: string | null
  timezone?: string
  is_active?: boolean
}

const columns =
  'id, org_id, name, address_line1, address_line2, city, region, postal_code, country, timezone, is_active, version, created_at, updated_at'

/** The columns a write may set, in a fixed order (the keys of LocationWrite). */
const writable = [
  'name',
  'address_line1',
  'address_line2',
  'city',
  'region',
  'postal_code',
  'country',
  'timezone',
  'is_active',
] as const

export async function listLocations(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; isActive?: boolean; limit: number },
): Promise<LocationRow[]> {
  const result = await q.query<LocationRow>(
    `SELECT ${columns} FROM locations
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::boolean IS NULL OR is_active = $3)
     ORDER BY id LIMIT $4`,
    [orgId, f.afterId ?? null, f.isActive ?? null, f.limit],
  )
  return result.rows
}

export async function locationById(q: Queryable, orgId: string, id: string): Promise<LocationRow | undefined> {
  const result = await q.prepared<LocationRow>(
    'location_by_id',
    `SELECT ${columns} FROM locations WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function locationsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<LocationRow[]> {
  const result = await q.prepared<LocationRow>(
    'locations_by_ids',
    `SELECT ${columns} FROM locations WHERE org_id = $1 AND id = ANY($2)`,
    [orgId, ids],
  )
  return result.rows
}

export async function insertLocation(
  q: Queryable,
  orgId: string,
  id: string,
  w: Required<LocationWrite>,
): Promise<LocationRow> {
  const result = await q.query<LocationRow>(
    `INSERT INTO locations (id, org_id, ${writable.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${columns}`,
    [id, orgId, ...writable.map((c) => w[c])],
  )
  return result.rows[0]
}

/** Applies the given fields when `expectedVersion` is absent or current; undefined when nothing matched. */
export async function updateLocation(
  q: Queryable,
  orgId: string,
  id: string,
  w: LocationWrite,
  expectedVersion: number | undefined,
): Promise<LocationRow | undefined> {
  return updateVersioned<LocationRow>(
    q,
    'locations',
    columns,
    orgId,
    id,
    Object.fromEntries(writable.map((column) => [column, w[column]])),
    expectedVersion,
  )
}
