import { type Static, Type } from 'typebox'
import { type Dated, ListOrder, PageQuery, Timestamp } from '../../platform/http/schemas.ts'

/** Why a level changed; the first group comes from orders, lay-bys and refunds, the rest from stock keeping. */
const StockReason = Type.Union([
  Type.Literal('sale'),
  Type.Literal('return'),
  Type.Literal('refund_restock'),
  Type.Literal('layby_reserve'),
  Type.Literal('layby_release'),
  Type.Literal('received'),
  Type.Literal('damaged'),
  Type.Literal('theft'),
  Type.Literal('count'),
  Type.Literal('correction'),
  Type.Literal('transfer_out'),
  Type.Literal('transfer_in'),
])
export type StockReason = Static<typeof StockReason>

/** The reasons a person may give on POST /inventory/adjust. */
const AdjustReason = Type.Union([
  Type.Literal('received'),
  Type.Literal('damaged'),
  Type.Literal('theft'),
  Type.Literal('count'),
  Type.Literal('return'),
  Type.Literal('correction'),
])
export type AdjustReason = Static<typeof AdjustReason>

const Id = Type.String({ minLength: 1, maxLength: 100 })
const NullableId = Type.Union([Id, Type.Null()])

export const LevelSchema = Type.Object(
  {
    id: Type.String(),
    product_id: Type.String(),
    variant_id: Type.Union([Type.String(), Type.Null()]),
    location_id: Type.String(),
    on_hand: Type.Integer(),
    reorder_point: Type.Union([Type.Integer(), Type.Null()]),
    status: Type.Union([Type.Literal('in_stock'), Type.Literal('low_stock'), Type.Literal('out_of_stock')], {
      description: 'low_stock: at or below reorder_point; out_of_stock: at or below zero',
    }),
    updated_at: Timestamp,
  },
  { $id: 'InventoryLevel' },
)
/** As the service builds it (so are Movement and Transfer): Dates, which the serializer writes as ISO strings. */
export type Level = Dated<Static<typeof LevelSchema>, 'updated_at'>

const Reference = Type.Union([Type.Object({ type: Type.String(), id: Type.String() }), Type.Null()])

export const MovementSchema = Type.Object(
  {
    id: Type.String(),
    product_id: Type.String(),
    variant_id: Type.Union([Type.String(), Type.Null()]),
    location_id: Type.String(),
    quantity: Type.Integer({ description: 'signed change' }),
    reason: Type.String(),
    quantity_before: Type.Integer(),
    quantity_after: Type.Integer(),
    reference: Reference,
    note: Type.Union([Type.String(), Type.Null()]),
    actor: Type.Object({
      kind: Type.String(),
      user_id: Type.Union([Type.String(), Type.Null()]),
      client_id: Type.String(),
    }),
    occurred_at: Timestamp,
    created_at: Timestamp,
  },
  { $id: 'InventoryMovement' },
)
export type Movement = Dated<Static<typeof MovementSchema>, 'occurred_at' | 'created_at'>

const Line = Type.Object({
  product_id: Type.String(),
  variant_id: Type.Union([Type.String(), Type.Null()]),
  quantity: Type.Integer(),
})

export const TransferSchema = Type.Object(
  {
    id: Type.String(),
    from_location_id: Type.String(),
    to_location_id: Type.String(),
    status: Type.Literal('completed', { description: 'a transfer moves its stock at once' }),
    note: Type.Union([Type.String(), Type.Null()]),
    lines: Type.Array(Line),
    actor: Type.Object({ user_id: Type.Union([Type.String(), Type.Null()]), client_id: Type.String() }),
    created_at: Timestamp,
  },
  { $id: 'InventoryTransfer' },
)
export type Transfer = Dated<Static<typeof TransferSchema>, 'created_at'>

export const AdjustBody = Type.Object(
  {
    product_id: Id,
    variant_id: Type.Optional(NullableId),
    location_id: Id,
    quantity: Type.Integer({
      minimum: -1_000_000_000,
      maximum: 1_000_000_000,
      description: 'signed change; for reason count, the counted quantity the level is set to',
    }),
    reason: AdjustReason,
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    occurred_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'when it happened by the client clock' }),
    ),
  },
  { additionalProperties: false },
)
export type AdjustBody = Static<typeof AdjustBody>

export const TransferBody = Type.Object(
  {
    from_location_id: Id,
    to_location_id: Id,
    lines: Type.Array(
      Type.Object(
        {
          product_id: Id,
          variant_id: Type.Optional(NullableId),
          quantity: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 200 },
    ),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
)
export type TransferBody = Static<typeof TransferBody>

export const ReorderPointBody = Type.Object(
  {
    product_id: Id,
    variant_id: Type.Optional(NullableId),
    location_id: Id,
    reorder_point: Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()], {
      description: 'alert at or below this quantity; null clears it',
    }),
  },
  { additionalProperties: false },
)
export type ReorderPointBody = Static<typeof ReorderPointBody>

export const LevelListQuery = Type.Object(
  { ...PageQuery, location_id: Type.Optional(Id), product_id: Type.Optional(Id), variant_id: Type.Optional(Id) },
  { additionalProperties: false },
)
export type LevelListQuery = Static<typeof LevelListQuery>

export const AlertListQuery = Type.Object(
  { ...PageQuery, location_id: Type.Optional(Id) },
  { additionalProperties: false },
)
export type AlertListQuery = Static<typeof AlertListQuery>

export const MovementListQuery = Type.Object(
  {
    ...PageQuery,
    product_id: Type.Optional(Id),
    variant_id: Type.Optional(Id),
    location_id: Type.Optional(Id),
    reason: Type.Optional(StockReason),
    reference_type: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    reference_id: Type.Optional(Id),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'occurred at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'occurred before' })),
    order: ListOrder,
  },
  { additionalProperties: false },
)
export type MovementListQuery = Static<typeof MovementListQuery>
