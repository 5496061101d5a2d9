import { qualified } from '../../platform/db/columns.ts'
import type { Queryable } from '../../platform/db/database.ts'
import { type GiftCardRow, giftCardColumns, type LedgerRow, ledgerColumns } from './gift-cards.tables.ts'

export async function insertGiftCard(
  q: Queryable,
  orgId: string,
  g: { id: string; code: string; currency: string; balance: bigint; customerId: string | null },
): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `INSERT INTO gift_cards (id, org_id, code, currency, initial_balance, balance, status, customer_id)
     VALUES ($1, $2, $3, $4, $5, $5, CASE WHEN $5::bigint = 0 THEN 'depleted' ELSE 'active' END, $6)
     ON CONFLICT (org_id, code) DO NOTHING RETURNING ${giftCardColumns}`,
    [g.id, orgId, g.code, g.currency, g.balance.toString(), g.customerId],
  )
  return result.rows[0]
}

export async function giftCardById(
  q: Queryable,
  orgId: string,
  id: string,
  lock = false,
): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `SELECT ${giftCardColumns} FROM gift_cards WHERE org_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function giftCardByCode(q: Queryable, orgId: string, code: string): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `SELECT ${giftCardColumns} FROM gift_cards WHERE org_id = $1 AND code = $2`,
    [orgId, code],
  )
  return result.rows[0]
}

/**
 * Takes `amount` off an active card in one statement, never below zero; a card reaching zero is depleted.
 * Undefined when the card is not active or lacks the balance (the caller tells which).
 */
export async function debit(
  q: Queryable,
  orgId: string,
  code: string,
  amount: bigint,
): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `UPDATE gift_cards SET balance = balance - $3, status = CASE WHEN balance - $3 = 0 THEN 'depleted' ELSE status END,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND code = $2 AND status = 'active' AND balance >= $3 RETURNING ${giftCardColumns}`,
    [orgId, code, amount.toString()],
  )
  return result.rows[0]
}

const giftCardColumnsOfG = qualified(giftCardColumns, 'g')

/**
 * Takes up to `amount` from an active card, as much as its balance allows (a sale made offline, which happened
 * whatever the card holds); answers the card and what was taken, or undefined for no active card of that code.
 */
export async function debitUpTo(
  q: Queryable,
  orgId: string,
  code: string,
  amount: bigint,
): Promise<(GiftCardRow & { taken: string }) | undefined> {
  const result = await q.query<GiftCardRow & { taken: string }>(
    `WITH c AS (
       SELECT id, LEAST(balance, $3::bigint) AS taken FROM gift_cards
       WHERE org_id = $1 AND code = $2 AND status = 'active' AND balance > 0 FOR UPDATE
     )
     UPDATE gift_cards g SET balance = g.balance - c.taken,
       status = CASE WHEN g.balance - c.taken = 0 THEN 'depleted' ELSE g.status END,
       version = g.version + 1, updated_at = now()
     FROM c WHERE g.org_id = $1 AND g.id = c.id RETURNING ${giftCardColumnsOfG}, c.taken::text AS taken`,
    [orgId, code, amount.toString()],
  )
  return result.rows[0]
}

/** Adds to a card (a load or a refund); a depleted card becomes active again, a disabled one stays disabled. */
export async function credit(
  q: Queryable,
  orgId: string,
  id: string,
  amount: bigint,
): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `UPDATE gift_cards SET balance = balance + $3, status = CASE WHEN status = 'depleted' THEN 'active' ELSE status END,
       version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${giftCardColumns}`,
    [orgId, id, amount.toString()],
  )
  return result.rows[0]
}

export async function disable(q: Queryable, orgId: string, id: string): Promise<GiftCardRow | undefined> {
  const result = await q.query<GiftCardRow>(
    `UPDATE gift_cards SET status = 'disabled', version = version + 1, updated_at = now()
     WHERE org_id = $1 AND id = $2 AND status <> 'disabled' RETURNING ${giftCardColumns}`,
    [orgId, id],
  )
  return result.rows[0]
}

export async function insertLedger(
  q: Queryable,
  orgId: string,
  e: {
    id: string
    giftCardId: string
    kind: LedgerRow['kind']
    amount: bigint
    balanceAfter: bigint
    reference?: { type: string; id: string }
  },
): Promise<void> {
  await q.query(
    `INSERT INTO gift_card_ledger (id, org_id, gift_card_id, kind, amount, balance_after, reference_type, reference_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      e.id,
      orgId,
      e.giftCardId,
      e.kind,
      e.amount.toString(),
      e.balanceAfter.toString(),
      e.reference?.type ?? null,
      e.reference?.id ?? null,
    ],
  )
}

export async function ledgerOf(
  q: Queryable,
  orgId: string,
  giftCardId: string,
  afterId: string | null,
  limit: number,
): Promise<LedgerRow[]> {
  const result = await q.query<LedgerRow>(
    `SELECT ${ledgerColumns} FROM gift_card_ledger
     WHERE org_id = $1 AND gift_card_id = $2 AND ($3::text IS NULL OR id > $3) ORDER BY id LIMIT $4`,
    [orgId, giftCardId, afterId, limit],
  )
  return result.rows
}

/** Cards with money left on them, and how much (reports). */
export async function outstanding(q: Queryable, orgId: string) {
  const result = await q.query<{ cards: string; balance: string | null }>(
    "SELECT count(*) AS cards, sum(balance) AS balance FROM gift_cards WHERE org_id = $1 AND status = 'active' AND balance > 0",
    [orgId],
  )
  return result.rows[0]
}
