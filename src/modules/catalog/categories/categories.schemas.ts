import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'

export const CategorySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    parent_id: Type.Union([Type.String(), Type.Null()], {
      description: 'the parent category; null at the top of the tree',
    }),
    sort_order: Type.Integer(),
    is_active: Type.Boolean({ description: 'false once archived (DELETE)' }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Category' },
)
export type Category = Dated<Static<typeof CategorySchema>, 'created_at' | 'updated_at'>

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000 }),
  parent_id: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  sort_order: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  is_active: Type.Boolean(),
}

export const CreateCategoryBody = Type.Object(
  {
    name: writable.name,
    description: Type.Optional(writable.description),
    parent_id: Type.Optional(writable.parent_id),
    sort_order: Type.Optional(writable.sort_order),
    is_active: Type.Optional(writable.is_active),
  },
  { additionalProperties: false },
)
export type CreateCategoryBody = Static<typeof CreateCategoryBody>

export const UpdateCategoryBody = Type.Object(
  {
    name: Type.Optional(writable.name),
    description: Type.Optional(writable.description),
    parent_id: Type.Optional(writable.parent_id),
    sort_order: Type.Optional(writable.sort_order),
    is_active: Type.Optional(writable.is_active),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type CategoryInput = Omit<Static<typeof UpdateCategoryBody>, 'version'>

export const CategoryListQuery = Type.Object(
  {
    ...PageQuery,
    parent_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'children of this category; the literal `null` lists top-level categories',
      }),
    ),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CategoryListQuery = Static<typeof CategoryListQuery>
