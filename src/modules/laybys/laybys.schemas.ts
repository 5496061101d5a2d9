import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'
import { ApprovalInput, DiscountInput, OrderLineInput } from '../orders/index.ts'
import { TenderFields } from '../payments/index.ts'

const Id = Type.String({ minLength: 1, maxLength: 100 })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const TenderBody = Type.Object(
  {
    amount: TenderFields.amount,
    method: TenderFields.method,
    payment_method_token: TenderFields.payment_method_token,
    gift_card_code: TenderFields.gift_card_code,
    shift_id: TenderFields.shift_id,
  },
  { additionalProperties: false },
)
export type TenderBody = Static<typeof TenderBody>

export const CreateLaybyBody = Type.Object(
  {
    customer_id: Id,
    location_id: Id,
    lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: 200 }),
    discounts: Type.Optional(Type.Array(DiscountInput, { maxItems: 5 })),
    voucher_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
        maxItems: 10,
        description: 'campaign vouchers the customer presents; their uses count when the lay-by opens',
      }),
    ),
    deposit: TenderBody,
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    approval: Type.Optional(ApprovalInput),
  },
  { additionalProperties: false },
)
export type CreateLaybyBody = Static<typeof CreateLaybyBody>

export const CancelLaybyBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    shift_id: Type.Optional(Id),
    approval: Type.Optional(ApprovalInput),
  },
  { additionalProperties: false },
)
export type CancelLaybyBody = Static<typeof CancelLaybyBody>
export const CompleteLaybyBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
)
export type CompleteLaybyBody = Static<typeof CompleteLaybyBody>

/** Every state a lay-by can be in. */
const LaybyStatusName = Type.Union([
  Type.Literal('open'),
  Type.Literal('cancelling'),
  Type.Literal('completed'),
  Type.Literal('cancelled'),
])
export type LaybyStatus = Static<typeof LaybyStatusName>

export const LaybyListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(LaybyStatusName),
    customer_id: Type.Optional(Id),
  },
  { additionalProperties: false },
)
export type LaybyListQuery = Static<typeof LaybyListQuery>

const LaybyLine = Type.Object({
  product_id: Type.String(),
  variant_id: Nullable(Type.String()),
  name: Type.String(),
  quantity: Type.Integer(),
  unit_price: Money,
  tax_rate: Type.Number(),
  line_subtotal: Money,
  line_discount: Money,
  line_tax: Money,
  line_total: Money,
})

export const LaybySchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Union(LaybyStatusName.anyOf, { description: 'cancelling: its refunds are under way' }),
    customer_id: Type.String(),
    location_id: Type.String(),
    currency: Type.String(),
    lines: Type.Array(LaybyLine),
    subtotal: Money,
    discount_total: Money,
    tax_total: Money,
    total: Money,
    amount_paid: Money,
    balance_due: Money,
    order_id: Nullable(Type.String({ description: 'the completed order the lay-by became' })),
    note: Type.String(),
    payments: Type.Optional(Type.Array(Type.Ref('Payment'))),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Layby' },
)
/** As services hand it over: the timestamps are Dates until the serializer writes them. */
export type Layby = Dated<Static<typeof LaybySchema>, 'created_at' | 'updated_at'>
