import type { Queryable } from '../../../platform/db/database.ts'
import { updateVersioned } from '../../../platform/db/versioned-update.ts'
import { replacePositioned } from '../catalog.repo.ts'
import { type GroupRow, groupColumns, type OptionRow, optionColumns } from './modifiers.tables.ts'

interface GroupWrite {
  name?: string
  required?: boolean
  minSelections?: number
  maxSelections?: number | null
}

export interface OptionWrite {
  name?: string
  priceAdjustment?: bigint
  isDefault?: boolean
}

export async function listGroups(
  q: Queryable,
  orgId: string,
  f: { afterId?: string; productId?: string; limit: number },
): Promise<GroupRow[]> {
  const result = await q.query<GroupRow>(
    `SELECT ${groupColumns} FROM modifier_groups g
     WHERE org_id = $1 AND ($2::text IS NULL OR id > $2)
       AND ($3::text IS NULL OR EXISTS (
         SELECT 1 FROM product_modifier_groups pmg WHERE pmg.org_id = $1 AND pmg.group_id = g.id AND pmg.product_id = $3))
     ORDER BY id LIMIT $4`,
    [orgId, f.afterId ?? null, f.productId ?? null, f.limit],
  )
  return result.rows
}

export async function groupsByIds(q: Queryable, orgId: string, ids: readonly string[]): Promise<GroupRow[]> {
  const result = await q.query<GroupRow>(
    `SELECT ${groupColumns} FROM modifier_groups WHERE org_id = $1 AND id = ANY($2)`,
    [orgId, ids],
  )
  return result.rows
}

export async function optionsOf(q: Queryable, orgId: string, groupIds: readonly string[]): Promise<OptionRow[]> {
  const result = await q.query<OptionRow>(
    `SELECT ${optionColumns} FROM modifier_options WHERE org_id = $1 AND group_id = ANY($2) ORDER BY id`,
    [orgId, groupIds],
  )
  return result.rows
}

export async function optionById(
  q: Queryable,
  orgId: string,
  groupId: string,
  id: string,
): Promise<OptionRow | undefined> {
  const result = await q.query<OptionRow>(
    `SELECT ${optionColumns} FROM modifier_options WHERE org_id = $1 AND group_id = $2 AND id = $3`,
    [orgId, groupId, id],
  )
  return result.rows[0]
}

export async function insertGroup(q: Queryable, orgId: string, id: string, g: Required<GroupWrite>): Promise<GroupRow> {
  const result = await q.query<GroupRow>(
    `INSERT INTO modifier_groups (id, org_id, name, required, min_selections, max_selections)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${groupColumns}`,
    [id, orgId, g.name, g.required, g.minSelections, g.maxSelections],
  )
  return result.rows[0]
}

export async function updateGroup(
  q: Queryable,
  orgId: string,
  id: string,
  g: GroupWrite,
  expectedVersion: number | undefined,
) {
  return updateVersioned<GroupRow>(
    q,
    'modifier_groups',
    groupColumns,
    orgId,
    id,
    { name: g.name, required: g.required, min_selections: g.minSelections, max_selections: g.maxSelections },
    expectedVersion,
  )
}

export async function insertOption(
  q: Queryable,
  orgId: string,
  groupId: string,
  id: string,
  o: Required<OptionWrite>,
): Promise<OptionRow> {
  const result = await q.query<OptionRow>(
    `INSERT INTO modifier_options (id, org_id, group_id, name, price_adjustment, is_default)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${optionColumns}`,
    [id, orgId, groupId, o.name, o.priceAdjustment.toString(), o.isDefault],
  )
  return result.rows[0]
}

export async function updateOption(
  q: Queryable,
  orgId: string,
  groupId: string,
  id: string,
  o: OptionWrite,
  expectedVersion: number | undefined,
): Promise<OptionRow | undefined> {
  const current = await optionById(q, orgId, groupId, id)
  if (!current) return undefined
  return updateVersioned<OptionRow>(
    q,
    'modifier_options',
    optionColumns,
    orgId,
    id,
    { name: o.name, price_adjustment: o.priceAdjustment?.toString(), is_default: o.isDefault },
    expectedVersion,
  )
}

export async function deleteOption(
  q: Queryable,
  orgId: string,
  groupId: string,
  id: string,
  expectedVersion: number | undefined,
): Promise<boolean> {
  const result = await q.query(
    'DELETE FROM modifier_options WHERE org_id = $1 AND group_id = $2 AND id = $3 AND ($4::int IS NULL OR version = $4)',
    [orgId, groupId, id, expectedVersion ?? null],
  )
  return (result.rowCount ?? 0) > 0
}

/** Bumps the group's version: its options are part of it as the API shows it. */
export async function touchGroup(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('UPDATE modifier_groups SET version = version + 1, updated_at = now() WHERE org_id = $1 AND id = $2', [
    orgId,
    id,
  ])
}

/** Replaces the groups attached to a product, keeping the given order. */
export async function setProductGroups(
  q: Queryable,
  orgId: string,
  productId: string,
  groupIds: readonly string[],
): Promise<void> {
  await replacePositioned(q, 'product_modifier_groups', 'product_id', orgId, productId, [
    { name: 'group_id', type: 'text', values: groupIds },
  ])
}

export async function productGroupIds(q: Queryable, orgId: string, productId: string): Promise<string[]> {
  const result = await q.query<{ group_id: string }>(
    'SELECT group_id FROM product_modifier_groups WHERE org_id = $1 AND product_id = $2 ORDER BY position',
    [orgId, productId],
  )
  return result.rows.map((r) => r.group_id)
}
