import type { Queryable } from '../../platform/db/database.ts'

/**
 * Receipts e-mailed for the order, ever, and by the org in the last day, counted under a lock on the org's
 * receipt e-mails (a transaction-scoped advisory lock), so two requests at once cannot both take the last one.
 */
export async function lockAndCount(
  q: Queryable,
  orgId: string,
  orderId: string,
): Promise<{ forOrder: number; forOrgToday: number }> {
  await q.query("SELECT pg_advisory_xact_lock(hashtext('receipt_emails:' || $1))", [orgId])
  const result = await q.query<{ for_order: number; for_org: number }>(
    `SELECT count(*) FILTER (WHERE order_id = $2)::int AS for_order,
       count(*) FILTER (WHERE created_at > now() - interval '1 day')::int AS for_org
     FROM receipt_emails WHERE org_id = $1 AND (order_id = $2 OR created_at > now() - interval '1 day')`,
    [orgId, orderId],
  )
  return { forOrder: result.rows[0].for_order, forOrgToday: result.rows[0].for_org }
}

export async function recordEmail(q: Queryable, orgId: string, id: string, orderId: string): Promise<void> {
  await q.query('INSERT INTO receipt_emails (org_id, id, order_id) VALUES ($1, $2, $3)', [orgId, id, orderId])
}
