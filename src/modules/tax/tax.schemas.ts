import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Rate = Type.Number({
  minimum: 0,
  maximum: 100,
  description: 'percentage with up to 4 decimals, e.g. 15 or 8.875',
})
const AppliesTo = Type.Union([Type.Literal('all'), Type.Literal('categories'), Type.Literal('products')], {
  description: 'all products, or only the listed categories or products',
})
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 })

export const TaxRateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    rate: Type.Number({ description: 'percentage' }),
    applies_to: Type.String(),
    category_ids: Type.Array(Type.String()),
    product_ids: Type.Array(Type.String()),
    inclusive: Type.Boolean({ description: "the org's prices_include_tax: prices already contain this tax" }),
    is_active: Type.Boolean(),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'TaxRate' },
)
/** As services hand it over: the timestamps are Dates until the serializer writes them. */
export type TaxRate = Dated<Static<typeof TaxRateSchema>, 'created_at' | 'updated_at'>

export const CreateTaxRateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    rate: Rate,
    applies_to: Type.Optional(AppliesTo),
    category_ids: Type.Optional(Ids),
    product_ids: Type.Optional(Ids),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateTaxRateBody = Static<typeof CreateTaxRateBody>

export const UpdateTaxRateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    rate: Type.Optional(Rate),
    applies_to: Type.Optional(AppliesTo),
    category_ids: Type.Optional(Ids),
    product_ids: Type.Optional(Ids),
    is_active: Type.Optional(Type.Boolean()),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
export type UpdateTaxRateBody = Static<typeof UpdateTaxRateBody>

export const TaxRateListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type TaxRateListQuery = Static<typeof TaxRateListQuery>
