import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'

export const BundleSchema = Type.Object(
  {
    id: Type.String(),
    product_id: Type.String({ description: 'the product sold as the bundle; its price is the bundle price' }),
    components: Type.Array(
      Type.Object({
        product_id: Type.String(),
        variant_id: Type.Union([Type.String(), Type.Null()]),
        quantity: Type.Integer(),
      }),
    ),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Bundle' },
)
export type Bundle = Dated<Static<typeof BundleSchema>, 'created_at' | 'updated_at'>

const Components = Type.Array(
  Type.Object(
    {
      product_id: Type.String({ minLength: 1, maxLength: 100 }),
      variant_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
      quantity: Type.Integer({ minimum: 1, maximum: 10_000 }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 100 },
)
export type ComponentInput = Static<typeof Components>[number]

export const CreateBundleBody = Type.Object(
  { product_id: Type.String({ minLength: 1, maxLength: 100 }), components: Components },
  { additionalProperties: false },
)
export type CreateBundleBody = Static<typeof CreateBundleBody>

export const UpdateBundleBody = Type.Object(
  { components: Type.Optional(Components), version: Type.Optional(Version) },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type BundleInput = Omit<Static<typeof UpdateBundleBody>, 'version'>

export const BundleListQuery = Type.Object(
  { ...PageQuery, product_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
)
export type BundleListQuery = Static<typeof BundleListQuery>
