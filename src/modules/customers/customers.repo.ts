import type { Queryable } from '../../platform/db/database.ts'
import { containing } from '../../platform/db/like.ts'
import { updateVersioned } from '../../platform/db/versioned-update.ts'
import { type CustomerRow, customerColumns } from './customers.tables.ts'

export interface CustomerWrite {
  firstName?: string
  lastName?: string
  email?: string | null
  emailKey?: string | null
  phone?: string | null
  phoneKey?: string | null
  preferences?: Record<string, unknown>
  birthday?: string | null
  loyaltyMemberId?: string | null
  note?: string
  tags?: string[]
}

/**
 * Keyset page in creation order. A search matches the full name, e-mail or phone anywhere in the text, and with
 * three or more digits the phone's digits whatever their spacing; it runs in customers_search
 * (db/migrations/0132), as the owner within the session's org, where the trigram indexes can serve it (row-level
 * security keeps them from serving ILIKE under the app's role).
 */
export async function listCustomers(
  q: Queryable,
  orgId: string,
  f: { afterId: string | null; search: string | null; limit: number },
): Promise<CustomerRow[]> {
  if (f.search !== null) {
    const digits = f.search.replace(/[^0-9]/g, '')
    const result = await q.query<CustomerRow>(`SELECT ${customerColumns} FROM customers_search($1, $2, $3, $4)`, [
      containing(f.search),
      digits.length >= 3 ? `%${digits}%` : null,
      f.afterId,
      f.limit,
    ])
    return result.rows
  }
  // One statement per shape: a catch-all `($n IS NULL OR id > $n)` gets a generic plan that sorts the org.
  const result =
    f.afterId === null
      ? await q.prepared<CustomerRow>(
          'customers_list',
          `SELECT ${customerColumns} FROM customers WHERE org_id = $1 ORDER BY id LIMIT $2`,
          [orgId, f.limit],
        )
      : await q.prepared<CustomerRow>(
          'customers_list_after',
          `SELECT ${customerColumns} FROM customers WHERE org_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
          [orgId, f.afterId, f.limit],
        )
  return result.rows
}

export async function customerById(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `SELECT ${customerColumns} FROM customers WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

/** A customer's tags, or null when the customer is not one of the org's (an existence check in passing). */
export async function customerTags(q: Queryable, orgId: string, id: string): Promise<string[] | null> {
  const result = await q.prepared<{ tags: string[] }>(
    'customer_tags',
    'SELECT tags FROM customers WHERE org_id = $1 AND id = $2',
    [orgId, id],
  )
  return result.rows[0]?.tags ?? null
}

/** The customer an upsert matches: by e-mail first, then by phone. Locked for the update that follows. */
export async function customerByKeys(
  q: Queryable,
  orgId: string,
  emailKey: string | null,
  phoneKey: string | null,
): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `SELECT ${customerColumns} FROM customers
     WHERE org_id = $1 AND ((email_key = $2) OR (phone_key = $3))
     ORDER BY (email_key = $2) DESC NULLS LAST, id
     LIMIT 1 FOR UPDATE`,
    [orgId, emailKey, phoneKey],
  )
  return result.rows[0]
}

/** Inserts unless a customer with the same e-mail or phone appeared meanwhile (then undefined: match again). */
export async function insertCustomer(
  q: Queryable,
  orgId: string,
  id: string,
  w: CustomerWrite,
): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `INSERT INTO customers (id, org_id, first_name, last_name, email, email_key, phone, phone_key, preferences, birthday, loyalty_member_id, note, tags)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT DO NOTHING RETURNING ${customerColumns}`,
    [
      id,
      orgId,
      w.firstName ?? '',
      w.lastName ?? '',
      w.email ?? null,
      w.emailKey ?? null,
      w.phone ?? null,
      w.phoneKey ?? null,
      JSON.stringify(w.preferences ?? {}),
      w.birthday ?? null,
      w.loyaltyMemberId ?? null,
      w.note ?? '',
      w.tags ?? [],
    ],
  )
  return result.rows[0]
}

export async function updateCustomer(
  q: Queryable,
  orgId: string,
  id: string,
  w: CustomerWrite,
  expectedVersion: number | undefined,
): Promise<CustomerRow | undefined> {
  return updateVersioned<CustomerRow>(
    q,
    'customers',
    customerColumns,
    orgId,
    id,
    {
      first_name: w.firstName,
      last_name: w.lastName,
      email: w.email,
      email_key: w.emailKey,
      phone: w.phone,
      phone_key: w.phoneKey,
      preferences: w.preferences === undefined ? undefined : JSON.stringify(w.preferences),
      birthday: w.birthday,
      loyalty_member_id: w.loyaltyMemberId,
      note: w.note,
      tags: w.tags,
    },
    expectedVersion,
  )
}

export async function setLoyaltyMemberId(
  q: Queryable,
  orgId: string,
  id: string,
  memberId: string,
): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `UPDATE customers SET loyalty_member_id = $3, version = version + 1, updated_at = now() WHERE org_id = $1 AND id = $2
     RETURNING ${customerColumns}`,
    [orgId, id, memberId],
  )
  return result.rows[0]
}

/** Adds `tag` unless the customer has it already; no row when the customer is absent or already tagged. */
export async function addTag(q: Queryable, orgId: string, id: string, tag: string): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `UPDATE customers SET tags = array_append(tags, $3), version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND NOT ($3 = ANY (tags))
     RETURNING ${customerColumns}`,
    [orgId, id, tag],
  )
  return result.rows[0]
}

/** Blanks every personal field of the customer, once; the row stays for the orders and payments that name it. */
export async function erase(q: Queryable, orgId: string, id: string): Promise<CustomerRow | undefined> {
  const result = await q.query<CustomerRow>(
    `UPDATE customers SET first_name = '', last_name = '', email = NULL, phone = NULL, email_key = NULL,
       phone_key = NULL, preferences = '{}', birthday = NULL, note = '', tags = '{}',
       erased_at = coalesce(erased_at, now()), version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${customerColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}
