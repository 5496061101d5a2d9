import { type Static, Type } from 'typebox'
import { type Dated, ListOrder, Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 100 })
const NullableString = Type.Union([Type.String(), Type.Null()])
const Amount = (description: string) => Type.Number({ minimum: 0, description })

export const RegisterSchema = Type.Object(
  {
    id: Type.String(),
    location_id: Type.String(),
    name: Type.String(),
    open_shift_id: NullableString,
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Register' },
)
/** As the service builds it (so are Shift and CashMovement): Dates, which the serializer writes as ISO strings. */
export type Register = Dated<Static<typeof RegisterSchema>, 'created_at' | 'updated_at'>

export const ShiftSchema = Type.Object(
  {
    id: Type.String(),
    register_id: Type.String(),
    location_id: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
    currency: Type.String(),
    opening_float: Money,
    cash_in: Money,
    cash_out: Money,
    cash_sales: Money,
    cash_refunds: Money,
    late_cash_sales: {
      ...Money,
      description:
        'cash of sales made offline in this shift that reached the server after it closed: in the drawer counted, not in expected_amount',
    },
    expected_amount: {
      ...Money,
      description: 'opening_float + cash_in - cash_out + cash_sales - cash_refunds (running while open)',
    },
    counted_amount: Type.Union([Money, Type.Null()]),
    variance: Type.Union([Money, Type.Null()], {
      description: 'counted - expected; negative when the drawer is short',
    }),
    opened_by: NullableString,
    closed_by: NullableString,
    opened_at: Timestamp,
    closed_at: Type.Union([Timestamp, Type.Null()]),
    version: Version,
  },
  { $id: 'Shift' },
)
export type Shift = Dated<Static<typeof ShiftSchema>, 'opened_at' | 'closed_at'>

export const CashMovementSchema = Type.Object(
  {
    id: Type.String(),
    shift_id: Type.String(),
    kind: Type.Union([Type.Literal('in'), Type.Literal('out'), Type.Literal('sale'), Type.Literal('refund')]),
    amount: Money,
    currency: Type.String(),
    reason: Type.String(),
    reference: Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()]),
    actor: Type.Object({ user_id: NullableString, client_id: Type.String() }),
    created_at: Timestamp,
  },
  { $id: 'ShiftCashMovement' },
)
export type CashMovement = Dated<Static<typeof CashMovementSchema>, 'created_at'>

export const CreateRegisterBody = Type.Object(
  { location_id: Id, name: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
)
export type CreateRegisterBody = Static<typeof CreateRegisterBody>

export const RegisterListQuery = Type.Object(
  { ...PageQuery, location_id: Type.Optional(Id) },
  { additionalProperties: false },
)
export type RegisterListQuery = Static<typeof RegisterListQuery>

export const OpenShiftBody = Type.Object(
  { opening_float: Amount('cash in the drawer at opening, in the org currency') },
  { additionalProperties: false },
)
export type OpenShiftBody = Static<typeof OpenShiftBody>

export const CashBody = Type.Object(
  {
    kind: Type.Union([Type.Literal('in'), Type.Literal('out')], {
      description: 'in: float top-up; out: drop or payout',
    }),
    amount: Type.Number({ exclusiveMinimum: 0, description: 'positive amount in the org currency' }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
)
export type CashBody = Static<typeof CashBody>

export const CloseShiftBody = Type.Object(
  { counted_amount: Amount('cash counted in the drawer at closing') },
  { additionalProperties: false },
)
export type CloseShiftBody = Static<typeof CloseShiftBody>

export const ShiftListQuery = Type.Object(
  {
    ...PageQuery,
    register_id: Type.Optional(Id),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    order: ListOrder,
  },
  { additionalProperties: false },
)
export type ShiftListQuery = Static<typeof ShiftListQuery>

export const CashMovementListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type CashMovementListQuery = Static<typeof CashMovementListQuery>
