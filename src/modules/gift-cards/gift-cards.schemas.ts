import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const GiftCardSchema = Type.Object(
  {
    id: Type.String(),
    code: Type.String(),
    currency: Type.String(),
    initial_balance: Money,
    balance: Money,
    status: Type.Union([Type.Literal('active'), Type.Literal('depleted'), Type.Literal('disabled')], {
      description: 'depleted: its balance is 0',
    }),
    customer_id: Nullable(Type.String()),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'GiftCard' },
)
/** As services hand it over: the timestamps are Dates until the serializer writes them. */
export type GiftCard = Dated<Static<typeof GiftCardSchema>, 'created_at' | 'updated_at'>

export const LedgerEntrySchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({ description: 'issue, load, redeem, refund or disable' }),
    amount: Type.Number({ description: 'signed change of the balance' }),
    balance_after: Money,
    reference_type: Nullable(Type.String()),
    reference_id: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'GiftCardLedgerEntry' },
)

export const IssueGiftCardBody = Type.Object(
  {
    initial_balance: Type.Number({ minimum: 0 }),
    customer_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  },
  { additionalProperties: false },
)
export type IssueGiftCardBody = Static<typeof IssueGiftCardBody>

export const LoadGiftCardBody = Type.Object(
  { amount: Type.Number({ exclusiveMinimum: 0 }) },
  { additionalProperties: false },
)
export type LoadGiftCardBody = Static<typeof LoadGiftCardBody>
export const DisableGiftCardBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
)
export const LookupQuery = Type.Object(
  { code: Type.String({ minLength: 4, maxLength: 64 }) },
  { additionalProperties: false },
)
export const LedgerQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type LedgerQuery = Static<typeof LedgerQuery>
