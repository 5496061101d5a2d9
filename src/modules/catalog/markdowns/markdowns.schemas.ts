import { type Static, Type } from 'typebox'
import { type Dated, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'
import { Window, WindowFields } from '../pricing/pricing.schemas.ts'

const Kind = Type.Union([Type.Literal('percentage'), Type.Literal('amount')])
export type Kind = Static<typeof Kind>

export const MarkdownSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: Kind,
    value: Type.Number({
      description: 'percentage: percent off (12.5 = 12.5 %); amount: decimal amount off the unit price',
    }),
    currency: Type.String({ description: 'ISO 4217 currency of an amount markdown (the org currency)' }),
    product_ids: Type.Array(Type.String(), {
      description: 'the products it applies to (empty when it targets a category)',
    }),
    category_id: Type.Union([Type.String(), Type.Null()], {
      description: 'the category (and its subcategories) it applies to',
    }),
    ...Window,
    is_active: Type.Boolean(),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Markdown' },
)
export type Markdown = Dated<Static<typeof MarkdownSchema>, 'starts_at' | 'ends_at' | 'created_at' | 'updated_at'>

const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  kind: Kind,
  value: Type.Number({ exclusiveMinimum: 0 }),
  product_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000 }),
  category_id: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  is_active: Type.Boolean(),
}

export const CreateMarkdownBody = Type.Object(
  {
    name: writable.name,
    kind: writable.kind,
    value: writable.value,
    product_ids: Type.Optional(writable.product_ids),
    category_id: Type.Optional(writable.category_id),
    ...WindowFields,
    is_active: Type.Optional(writable.is_active),
  },
  { additionalProperties: false },
)
export type CreateMarkdownBody = Static<typeof CreateMarkdownBody>

export const UpdateMarkdownBody = Type.Object(
  {
    name: Type.Optional(writable.name),
    kind: Type.Optional(writable.kind),
    value: Type.Optional(writable.value),
    product_ids: Type.Optional(writable.product_ids),
    category_id: Type.Optional(writable.category_id),
    ...WindowFields,
    is_active: Type.Optional(writable.is_active),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type MarkdownInput = Omit<Static<typeof UpdateMarkdownBody>, 'version'>

export const MarkdownListQuery = Type.Object(
  {
    ...PageQuery,
    product_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    category_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type MarkdownListQuery = Static<typeof MarkdownListQuery>
