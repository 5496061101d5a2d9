import { type Static, Type } from 'typebox'
import { type Dated, ListOrder, Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'
import { AppliedCampaignSchema, SkippedCampaignSchema } from '../campaigns/index.ts'

const Id = Type.String({ minLength: 1, maxLength: 100 })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const OrderLineInput = Type.Object(
  {
    product_id: Id,
    variant_id: Type.Optional(Nullable(Id)),
    quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
    modifier_option_ids: Type.Optional(Type.Array(Id, { maxItems: 50, description: 'omit for the default options' })),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type OrderLineInput = Static<typeof OrderLineInput>

/** A manager's PIN typed on the till where a member of staff asks for what they may not do alone. */
export const ApprovalInput = Type.Object(
  {
    user_id: Id,
    pin: Type.String({ minLength: 1, maxLength: 12 }),
  },
  {
    additionalProperties: false,
    description:
      "a manager's approval at the till: their user id and PIN, typed on the same paired till (voids, refunds and large discounts by staff)",
  },
)

export const DiscountInput = Type.Object(
  {
    type: Type.Union([Type.Literal('amount'), Type.Literal('percentage')]),
    value: Type.Number({
      exclusiveMinimum: 0,
      description: 'an amount in the org currency, or a percentage (0-100, 4 decimals)',
    }),
    reason: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
)
export type DiscountInput = Static<typeof DiscountInput>

/** A tip given with the order: an amount, or a percentage of the total before or after tax (the store's setting). */
export const TipInput = Type.Object(
  {
    amount: Type.Optional(Type.Number({ minimum: 0, description: 'an amount in the org currency' })),
    percentage: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description: "a percentage of the order's total, before or after tax as settings.tips.base says",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'one of amount or percentage; capped by settings.tips.max_percent of the total',
  },
)
export type TipInput = Static<typeof TipInput>

export const CreateOrderBody = Type.Object(
  {
    location_id: Id,
    customer_id: Type.Optional(Nullable(Id)),
    lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: 200 }),
    discounts: Type.Optional(
      Type.Array(DiscountInput, { maxItems: 5, description: 'order-level discounts, applied in order' }),
    ),
    voucher_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
        maxItems: 10,
        description: 'campaign vouchers the customer presents (any case); at most one per campaign',
      }),
    ),
    voucher_code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'one voucher the customer presents: the same as voucher_codes with one code (both may be given)',
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    shift_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "the till's open shift" })),
    approval: Type.Optional(ApprovalInput),
    tip: Type.Optional(TipInput),
  },
  { additionalProperties: false },
)
export type CreateOrderBody = Static<typeof CreateOrderBody>

export const CalculateQuery = Type.Object(
  {
    explain: Type.Optional(
      Type.Union([Type.Literal('relevant'), Type.Literal('all')], {
        description:
          'relevant (default): campaigns.not_applied leaves out campaigns limited to products not in the order; all lists them too',
      }),
    ),
  },
  { additionalProperties: false },
)
export type CalculateQuery = Static<typeof CalculateQuery>

/** A campaign rule's discount on one line. */
const LineDiscountSchema = Type.Object({
  campaign_id: Type.String(),
  rule_id: Type.String(),
  name: Type.String({ description: "the campaign's name" }),
  amount: Money,
})

const Modifier = Type.Object({
  id: Type.String(),
  group_id: Type.String(),
  name: Type.String(),
  price_adjustment: Money,
})

const OrderLineSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  variant_id: Nullable(Type.String()),
  name: Type.String(),
  quantity: Type.Integer(),
  base_price: Money,
  unit_price: Type.Number({ description: 'one unit with its modifiers, after price list and markdown' }),
  modifiers: Type.Array(Modifier),
  note: Type.String(),
  tax_rate: Type.Number({ description: 'summed percentage of the tax rates applied' }),
  line_subtotal: Money,
  line_discount: Money,
  line_tax: Money,
  line_total: Money,
  discounts: Type.Array(LineDiscountSchema, { description: 'the campaign discounts on this line' }),
  refunded_quantity: Type.Integer(),
  refunded_amount: Money,
})

const DiscountSchema = Type.Object({
  type: Type.String({ description: "amount or percentage (the till's own), or campaign" }),
  value: Type.Number({ description: 'what was asked (a campaign: its amount)' }),
  reason: Type.String({ description: "the till's reason, or the campaign's name" }),
  amount: Money,
  campaign_id: Type.Optional(Type.String()),
  rule_id: Type.Optional(Type.String()),
  rule_type: Type.Optional(Type.String()),
  voucher_code: Type.Optional(Nullable(Type.String())),
  points_multiplier: Type.Optional(Type.Number({ description: 'a points_multiplier rule: loyalty points × this' })),
  approved_by: Type.Optional(Type.String({ description: "the manager who approved a staff member's discount" })),
})

/** Every state an order can be in (docs/commerce.md). */
const OrderStatusName = Type.Union([
  Type.Literal('open'),
  Type.Literal('completed'),
  Type.Literal('voided'),
  Type.Literal('partially_refunded'),
  Type.Literal('refunded'),
])
export type OrderStatus = Static<typeof OrderStatusName>

export const RefundSchema = Type.Object(
  {
    id: Type.String(),
    order_id: Type.String(),
    amount: Money,
    reason: Type.String(),
    restock: Type.Boolean(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description: 'pending: at the processor, its amount reserved',
    }),
    failure_reason: Nullable(Type.String()),
    lines: Type.Array(Type.Object({ line_id: Type.String(), quantity: Type.Integer(), amount: Money })),
    approved_by: Nullable(Type.String({ description: "the manager who approved a staff member's refund" })),
    tip: Type.Number({ description: "what of the amount is the order's tip (refunded only when include_tip says so)" }),
    created_at: Timestamp,
  },
  { $id: 'Refund' },
)

const HistorySchema = Type.Object({
  from_status: Nullable(OrderStatusName),
  to_status: OrderStatusName,
  reason: Type.String(),
  actor: Type.String(),
  approved_by: Nullable(Type.String({ description: "the manager who approved a staff member's void" })),
  created_at: Timestamp,
})

const OrderPayment = Type.Object({
  id: Type.String(),
  method: Type.String(),
  amount: Money,
  status: Type.String(),
  amount_refunded: Money,
  tip: Type.Number({ description: 'what of the amount is a tip' }),
  cash_tendered: Nullable(Type.Number({ description: 'cash: what the customer handed over' })),
  change_given: Nullable(Type.Number({ description: 'cash: cash_tendered less the amount' })),
  created_at: Timestamp,
})

/** A payment as an order lists it (the payments module's own fields beyond these are not shown). */
export type OrderPayment = Dated<Static<typeof OrderPayment>, 'created_at'>

export const OrderSchema = Type.Object(
  {
    id: Type.String(),
    number: Type.Integer({
      minimum: 0,
      description: 'the number a person reads out ("order 1042"): sequential in the org, never reused',
    }),
    status: OrderStatusName,
    location_id: Type.String(),
    customer_id: Nullable(Type.String()),
    layby_id: Nullable(Type.String()),
    currency: Type.String(),
    prices_include_tax: Type.Boolean(),
    lines: Type.Array(OrderLineSchema),
    discounts: Type.Array(DiscountSchema),
    subtotal: Money,
    discount_total: Money,
    tax_total: Money,
    tip: Type.Number({ description: 'the tip, part of the total and outside the taxable amount; never discounted' }),
    tip_refunded: Type.Number({ description: 'what refunds returned of the tip' }),
    total: Type.Number({
      description: 'what the customer pays: the lines after discounts, the tax when added, the tip',
    }),
    amount_captured: Money,
    amount_refunded: Money,
    amount_paid: Type.Number({ description: 'captured minus refunded' }),
    balance_due: Type.Number({ description: 'total minus captured, never negative' }),
    note: Type.String(),
    loyalty_points_earned: Type.Integer(),
    sold_by: Nullable(Type.String({ description: 'the user who made the sale; null for an app or an older order' })),
    register_id: Nullable(Type.String({ description: "the till's register, for a sale made at a paired till" })),
    shift_id: Nullable(Type.String({ description: 'the register shift the sale was made in, when the till named it' })),
    client_sale_id: Nullable(
      Type.String({ description: "a sale a till made offline (POST /sync/orders): the till's own id for it" }),
    ),
    sold_at: Nullable(Timestamp),
    payments: Type.Optional(Type.Array(OrderPayment)),
    refunds: Type.Optional(Type.Array(Type.Ref('Refund'))),
    status_history: Type.Optional(Type.Array(HistorySchema)),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Nullable(Timestamp),
  },
  { $id: 'Order' },
)

export const CalculationSchema = Type.Object(
  {
    currency: Type.String(),
    prices_include_tax: Type.Boolean(),
    lines: Type.Array(
      Type.Object({
        product_id: Type.String(),
        variant_id: Nullable(Type.String()),
        name: Type.String(),
        quantity: Type.Integer(),
        base_price: Money,
        unit_price: Money,
        modifiers: Type.Array(Modifier),
        tax_rate: Type.Number(),
        line_subtotal: Money,
        line_discount: Money,
        line_tax: Money,
        line_total: Money,
        discounts: Type.Array(LineDiscountSchema),
      }),
    ),
    discounts: Type.Array(DiscountSchema),
    campaigns: Type.Object({
      applied: Type.Array(AppliedCampaignSchema),
      not_applied: Type.Array(SkippedCampaignSchema, {
        description: 'active campaigns that did not apply, each with a code and the reason in words',
      }),
    }),
    subtotal: Money,
    discount_total: Money,
    tax_total: Money,
    tip: Type.Number({ description: 'the tip asked for, on top of the lines' }),
    total: Type.Number({ description: 'with the tip' }),
  },
  { $id: 'OrderCalculation' },
)

export const OrderListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(OrderStatusName),
    created_from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
    created_to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
    location_id: Type.Optional(Id),
    customer_id: Type.Optional(Id),
    register_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'orders rung up on this register: by a till paired to it, or in one of its shifts',
      }),
    ),
    number: Type.Optional(Type.Integer({ minimum: 1, description: 'the order with this number' })),
    order: ListOrder,
  },
  { additionalProperties: false },
)
export type OrderListQuery = Static<typeof OrderListQuery>

export const CustomerOrdersQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type CustomerOrdersQuery = Static<typeof CustomerOrdersQuery>

export const StatusBody = Type.Object(
  {
    // Any state may be asked for; only open -> completed and open -> voided are moves, the rest a 409.
    status: OrderStatusName,
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    version: Type.Optional(Version),
    approval: Type.Optional(ApprovalInput),
  },
  { additionalProperties: false },
)
export type StatusBody = Static<typeof StatusBody>

export const RefundBody = Type.Object(
  {
    lines: Type.Optional(
      Type.Array(
        Type.Object({ line_id: Id, quantity: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
        {
          minItems: 1,
          maxItems: 200,
        },
      ),
    ),
    amount: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
    restock: Type.Optional(Type.Boolean({ default: false, description: 'put the refunded lines back on hand' })),
    include_tip: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'also return what is left of the tip, on top of the lines or the amount (default: the tip stays)',
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500, default: '' })),
    shift_id: Type.Optional(Id),
    approval: Type.Optional(ApprovalInput),
  },
  { additionalProperties: false },
)
export type RefundBody = Static<typeof RefundBody>
