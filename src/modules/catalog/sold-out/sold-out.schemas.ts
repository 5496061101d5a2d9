import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp } from '../../../platform/http/schemas.ts'

const Id = Type.String({ minLength: 1, maxLength: 100 })

export const SoldOutSchema = Type.Object(
  {
    location_id: Type.String(),
    item_id: Type.String({ description: 'what is sold out: the product (all its variants) or one variant' }),
    product_id: Type.String(),
    variant_id: Type.Union([Type.String(), Type.Null()], { description: 'null: the whole product' }),
    created_at: Timestamp,
  },
  { $id: 'SoldOutItem', description: 'an item marked sold out ("86") at a location, whatever its stock' },
)
export type SoldOutItem = Dated<Static<typeof SoldOutSchema>, 'created_at'>

export const SoldOutParams = Type.Object({ location_id: Id })
export const SoldOutItemParams = Type.Object({
  location_id: Id,
  item_id: Type.String({ minLength: 1, maxLength: 100, description: 'a product id or a variant id' }),
})
export type SoldOutItemParams = Static<typeof SoldOutItemParams>

export const SoldOutListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type SoldOutListQuery = Static<typeof SoldOutListQuery>
