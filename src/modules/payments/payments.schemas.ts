import { type Static, Type } from 'typebox'
import { type Dated, Money, Timestamp, Version } from '../../platform/http/schemas.ts'
import { PAYMENT_METHODS } from './payments.service.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Method = Type.Union(PAYMENT_METHODS.map((m) => Type.Literal(m)))
/** Every state a payment can be in (docs/commerce.md "Payments"). */
const PaymentStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('requires_capture'),
  Type.Literal('captured'),
  Type.Literal('voided'),
  Type.Literal('failed'),
  Type.Literal('partially_refunded'),
  Type.Literal('refunded'),
])

export const PaymentSchema = Type.Object(
  {
    id: Type.String(),
    order_id: Nullable(Type.String()),
    layby_id: Nullable(Type.String()),
    method: Type.String(),
    amount: Money,
    currency: Type.String(),
    status: PaymentStatus,
    amount_refunded: Money,
    processor: Nullable(Type.String()),
    processor_reference: Nullable(Type.String()),
    gift_card_id: Nullable(Type.String()),
    shift_id: Nullable(Type.String()),
    failure_code: Nullable(Type.String()),
    failure_message: Nullable(Type.String()),
    tip: Type.Number({ description: 'what of the amount is a tip (adjustable on a card before capture)' }),
    cash_tendered: Nullable(Type.Number({ description: 'cash: what the customer handed over' })),
    change_given: Nullable(Type.Number({ description: 'cash: cash_tendered less the amount' })),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
    captured_at: Nullable(Timestamp),
  },
  { $id: 'Payment' },
)
/** As services hand it over: the timestamps are Dates until the serializer writes them. */
export type Payment = Dated<Static<typeof PaymentSchema>, 'created_at' | 'updated_at' | 'captured_at'>

const tender = {
  amount: Type.Number({ exclusiveMinimum: 0 }),
  method: Method,
  payment_method_token: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'card: the processor token' }),
  ),
  capture: Type.Optional(Type.Boolean({ description: 'card: capture at once (default false: requires_capture)' })),
  gift_card_code: Type.Optional(Type.String({ minLength: 4, maxLength: 64 })),
  tip: Type.Optional(
    Type.Number({
      minimum: 0,
      description:
        "what of the amount is a tip the customer adds: the order's tip and total grow by it (orders only; capped by settings.tips.max_percent)",
    }),
  ),
  cash_tendered: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: 'cash: what the customer handed over (at least the amount); the change is the rest',
    }),
  ),
  shift_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'cash: the register shift taking it' }),
  ),
}

export const TenderFields = tender

export const CreatePaymentBody = Type.Object(
  { order_id: Type.String({ minLength: 1, maxLength: 100 }), ...tender },
  { additionalProperties: false },
)
export type CreatePaymentBody = Static<typeof CreatePaymentBody>
/** One tender, whatever it pays for. */
export type CreatePaymentInput = Omit<CreatePaymentBody, 'order_id'>

export const PaymentMethodsSchema = Type.Object({
  methods: Type.Array(Type.String(), { description: 'the methods enabled for this org' }),
  available: Type.Array(Type.String()),
  processor: Type.String({ description: 'the card processor adapter in use' }),
  version: Version,
})

export const PutPaymentMethodsBody = Type.Object(
  { methods: Type.Array(Method, { minItems: 1, maxItems: 10 }), version: Type.Optional(Version) },
  { additionalProperties: false },
)

export const EmptyBody = Type.Object({}, { additionalProperties: false })

export const TipAdjustmentBody = Type.Object(
  {
    tip: Type.Number({ minimum: 0, description: "the payment's tip from now on (replaces the one it has)" }),
  },
  { additionalProperties: false },
)
export type TipAdjustmentBody = Static<typeof TipAdjustmentBody>
