/** Row types and column lists of the gift card tables, once each. */

/** gift_cards (db/migrations/0043_payments.sql). */
export interface GiftCardRow {
  id: string
  code: string
  currency: string
  initial_balance: string
  balance: string
  status: 'active' | 'depleted' | 'disabled'
  customer_id: string | null
  version: number
  created_at: Date
  updated_at: Date
}

export const giftCardColumns =
  'id, code, currency, initial_balance, balance, status, customer_id, version, created_at, updated_at'

/** gift_card_ledger (db/migrations/0043_payments.sql). */
export interface LedgerRow {
  id: string
  gift_card_id: string
  kind: 'issue' | 'load' | 'redeem' | 'refund' | 'disable'
  amount: string
  balance_after: string
  reference_type: string | null
  reference_id: string | null
  created_at: Date
}

export const ledgerColumns = 'id, gift_card_id, kind, amount, balance_after, reference_type, reference_id, created_at'
