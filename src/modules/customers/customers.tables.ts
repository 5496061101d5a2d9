/** customers (db/migrations/0041_customers.sql; tags from 0105_automations.sql): its row type and column list. */

export interface CustomerRow {
  id: string
  org_id: string
  first_name: string
  last_name: string
  email: string | null
  phone: string | null
  preferences: Record<string, unknown>
  birthday: string | null
  loyalty_member_id: string | null
  note: string
  tags: string[]
  /** When the customer was erased on request (db/migrations/0142), or null. */
  erased_at: Date | null
  version: number
  created_at: Date
  updated_at: Date
}

/** birthday leaves as a plain YYYY-MM-DD text, never a timezone-shifted Date. */
export const customerColumns =
  "id, org_id, first_name, last_name, email, phone, preferences, to_char(birthday, 'YYYY-MM-DD') AS birthday, loyalty_member_id, note, tags, erased_at, version, created_at, updated_at"
