import { Type } from 'typebox'
import { PageQuery, Timestamp } from '../../platform/http/schemas.ts'
import { ADJUST_REASONS, STOCK_REASONS } from './inventory.types.ts'

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
    status: Type.String(),
    note: Type.Union([Type.String(), Type.Null()]),
    lines: Type.Array(Line),
    actor: Type.Object({ user_id: Type.Union([Type.String(), Type.Null()]), client_id: Type.String() }),
    created_at: Timestamp,
  },
  { $id: 'InventoryTransfer' },
)

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
    reason: Type.Union(ADJUST_REASONS.map((r) => Type.Literal(r))),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    occurred_at: Type.Optional(
      Type.String({ format: 'date-time', description: 'when it happened by the client clock' }),
    ),
  },
  { additionalProperties: false },
)

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

export const LevelListQuery = Type.Object(
  { ...PageQuery, location_id: Type.Optional(Id), product_id: Type.Optional(Id), variant_id: Type.Optional(Id) },
  { additionalProperties: false },
)

export const AlertListQuery = Type.Object(
  { ...PageQuery, location_id: Type.Optional(Id) },
  { additionalProperties: false },
)

export const MovementListQuery = Type.Object(
  {
    ...PageQuery,
    product_id: Type.Optional(Id),
    variant_id: Type.Optional(Id),
    location_id: Type.Optional(Id),
    reason: Type.Optional(Type.Union(STOCK_REASONS.map((r) => Type.Literal(r)))),
    reference_type: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    reference_id: Type.Optional(Id),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'occurred at or after' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'occurred before' })),
  },
  { additionalProperties: false },
)
