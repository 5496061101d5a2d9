import type { Queryable } from '../../platform/db/database.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import { type LocationRow, type LocationWrite, locationColumns, locationWriteColumns } from './locations.tables.ts'

export async function listLocations(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; isActive?: boolean; limit: number },
): Promise<LocationRow[]> {
  const result = await q.query<LocationRow>(
    `SELECT ${locationColumns} FROM locations
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2) AND ($3::boolean IS NULL OR is_active = $3)
     ORDER BY id LIMIT $4`,
    [orgId, f.afterId ?? null, f.isActive ?? null, f.limit],
  )
  return result.rows
}

export async function locationById(q: Queryable, orgId: string, id: string): Promise<LocationRow | undefined> {
  const result = await q.prepared<LocationRow>(
    'location_by_id',
    `SELECT ${locationColumns} FROM locations WHERE org_id = $1 AND id = $2`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function locationsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<LocationRow[]> {
  const result = await q.prepared<LocationRow>(
    'locations_by_ids',
    `SELECT ${locationColumns} FROM locations WHERE org_id = $1 AND id = ANY($2)`,
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
    `INSERT INTO locations (id, org_id, ${locationWriteColumns.join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${locationColumns}`,
    [id, orgId, ...locationWriteColumns.map((c) => w[c])],
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
    locationColumns,
    orgId,
    id,
    Object.fromEntries(locationWriteColumns.map((column) => [column, w[column]])),
    expectedVersion,
  )
}
