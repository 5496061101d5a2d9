import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'
import { Window, WindowFields } from '../pricing/pricing.schemas.ts'

const PriceEntry = Type.Object({
  product_id: Type.String(),
  variant_id: Type.Union([Type.String(), Type.Null()], {
    description: 'null: the product and every variant without its own entry',
  }),
  price: Money,
})

export const PriceListSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    location_id: Type.Union([Type.String(), Type.Null()], { description: 'null: applies at every location' }),
    ...Window,
    is_active: Type.Boolean(),
    currency: Type.String({ description: 'ISO 4217 currency of the prices (the org currency)' }),
    prices: Type.Array(PriceEntry),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'PriceList' },
)
export type PriceList = Dated<Static<typeof PriceListSchema>, 'starts_at' | 'ends_at' | 'created_at' | 'updated_at'>

const PriceInput = Type.Object(
  {
    product_id: Type.String({ minLength: 1, maxLength: 100 }),
    variant_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
    price: Type.Number({ minimum: 0, description: 'decimal amount in the org currency' }),
  },
  { additionalProperties: false },
)
export type PriceInput = Static<typeof PriceInput>

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  location_id: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  is_active: Type.Boolean(),
  prices: Type.Array(PriceInput, { maxItems: 1000, description: 'replaces every price of the list' }),
}

export const CreatePriceListBody = Type.Object(
  {
    name: writable.name,
    location_id: Type.Optional(writable.location_id),
    ...WindowFields,
    is_active: Type.Optional(writable.is_active),
    prices: Type.Optional(writable.prices),
  },
  { additionalProperties: false },
)
export type CreatePriceListBody = Static<typeof CreatePriceListBody>

export const UpdatePriceListBody = Type.Object(
  {
    name: Type.Optional(writable.name),
    location_id: Type.Optional(writable.location_id),
    ...WindowFields,
    is_active: Type.Optional(writable.is_active),
    prices: Type.Optional(writable.prices),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type PriceListInput = Omit<Static<typeof UpdatePriceListBody>, 'version'>

export const PriceListQuery = Type.Object(
  {
    ...PageQuery,
    location_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type PriceListQuery = Static<typeof PriceListQuery>
