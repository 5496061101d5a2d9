import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'

const OptionValues = Type.Record(
  Type.String({ minLength: 1, maxLength: 50 }),
  Type.String({ minLength: 1, maxLength: 100 }),
  {
    maxProperties: 20,
    description: 'the options this variant stands for, e.g. {"size": "L", "colour": "red"}',
  },
)

export const VariantSchema = Type.Object(
  {
    id: Type.String(),
    product_id: Type.String(),
    name: Type.String(),
    sku: Type.String(),
    option_values: Type.Record(Type.String(), Type.String()),
    price: Type.Union([Money, Type.Null()], {
      description: "the variant's own price; null sells at the product's base_price",
    }),
    cost: Type.Union([Money, Type.Null()], { description: 'unit cost; null takes the product’s cost' }),
    currency: Type.String({ description: 'ISO 4217 currency of price (the org currency)' }),
    barcodes: Type.Array(Type.String()),
    is_active: Type.Boolean({ description: 'false once archived (DELETE)' }),
    track_inventory: Type.Boolean({
      description: 'false: sold without a stock level; a variant is counted only when it and its product are',
    }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Variant' },
)
export type Variant = Dated<Static<typeof VariantSchema>, 'created_at' | 'updated_at'>

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  sku: Type.String({ minLength: 1, maxLength: 100 }),
  option_values: OptionValues,
  price: Type.Union([Type.Number({ minimum: 0, description: 'decimal amount in the org currency' }), Type.Null()]),
  cost: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'unit cost in the org currency' }),
  barcodes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50 }),
  is_active: Type.Boolean(),
  track_inventory: Type.Boolean({ description: 'false: sold without counting stock' }),
}

export const CreateVariantBody = Type.Object(
  {
    name: writable.name,
    sku: writable.sku,
    option_values: Type.Optional(writable.option_values),
    price: Type.Optional(writable.price),
    cost: Type.Optional(writable.cost),
    barcodes: Type.Optional(writable.barcodes),
    is_active: Type.Optional(writable.is_active),
    track_inventory: Type.Optional(writable.track_inventory),
  },
  { additionalProperties: false },
)
export type CreateVariantBody = Static<typeof CreateVariantBody>

export const UpdateVariantBody = Type.Object(
  {
    name: Type.Optional(writable.name),
    sku: Type.Optional(writable.sku),
    option_values: Type.Optional(writable.option_values),
    price: Type.Optional(writable.price),
    cost: Type.Optional(writable.cost),
    barcodes: Type.Optional(writable.barcodes),
    is_active: Type.Optional(writable.is_active),
    track_inventory: Type.Optional(writable.track_inventory),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type VariantInput = Omit<Static<typeof UpdateVariantBody>, 'version'>

export const VariantListQuery = Type.Object(
  { ...PageQuery, is_active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
)
export type VariantListQuery = Static<typeof VariantListQuery>
