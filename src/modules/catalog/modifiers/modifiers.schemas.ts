import { type Static, Type } from 'typebox'
import { type Dated, Money, PageQuery, Timestamp, Version } from '../../../platform/http/schemas.ts'

export const ModifierOptionSchema = Type.Object(
  {
    id: Type.String(),
    group_id: Type.String(),
    name: Type.String(),
    price_adjustment: Money,
    is_default: Type.Boolean(),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ModifierOption' },
)
export type ModifierOption = Dated<Static<typeof ModifierOptionSchema>, 'created_at' | 'updated_at'>

export const ModifierGroupSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    required: Type.Boolean({ description: 'at least one option must be chosen (and at least min_selections)' }),
    min_selections: Type.Integer(),
    max_selections: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no upper limit' }),
    currency: Type.String({ description: 'ISO 4217 currency of the price adjustments' }),
    options: Type.Array(Type.Ref('ModifierOption')),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'ModifierGroup' },
)
/** `options` is a $ref in the schema, which Static cannot follow. */
export type ModifierGroup = Omit<Dated<Static<typeof ModifierGroupSchema>, 'created_at' | 'updated_at'>, 'options'> & {
  options: ModifierOption[]
}

const optionFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  price_adjustment: Type.Number({ description: 'decimal amount added to the unit price; negative to take off' }),
  is_default: Type.Boolean(),
}

export const CreateOptionBody = Type.Object(
  {
    name: optionFields.name,
    price_adjustment: Type.Optional(optionFields.price_adjustment),
    is_default: Type.Optional(optionFields.is_default),
  },
  { additionalProperties: false },
)
export type CreateOptionBody = Static<typeof CreateOptionBody>

export const UpdateOptionBody = Type.Object(
  {
    name: Type.Optional(optionFields.name),
    price_adjustment: Type.Optional(optionFields.price_adjustment),
    is_default: Type.Optional(optionFields.is_default),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type OptionInput = Omit<Static<typeof UpdateOptionBody>, 'version'>

const groupFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  required: Type.Boolean(),
  min_selections: Type.Integer({ minimum: 0, maximum: 100 }),
  max_selections: Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()]),
}

export const CreateGroupBody = Type.Object(
  {
    name: groupFields.name,
    required: Type.Optional(groupFields.required),
    min_selections: Type.Optional(groupFields.min_selections),
    max_selections: Type.Optional(groupFields.max_selections),
    options: Type.Optional(Type.Array(CreateOptionBody, { maxItems: 100 })),
  },
  { additionalProperties: false },
)
export type CreateGroupBody = Static<typeof CreateGroupBody>

export const UpdateGroupBody = Type.Object(
  {
    name: Type.Optional(groupFields.name),
    required: Type.Optional(groupFields.required),
    min_selections: Type.Optional(groupFields.min_selections),
    max_selections: Type.Optional(groupFields.max_selections),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
/** The fields an update sets: its body less the version, which guards the write. */
export type GroupInput = Omit<Static<typeof UpdateGroupBody>, 'version'>

export const GroupListQuery = Type.Object(
  {
    ...PageQuery,
    product_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'only groups attached to this product' }),
    ),
  },
  { additionalProperties: false },
)
export type GroupListQuery = Static<typeof GroupListQuery>

export const OptionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100 }),
  optionId: Type.String({ minLength: 1, maxLength: 100 }),
})

export const AttachGroupsBody = Type.Object(
  {
    modifier_group_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 50,
      description: 'the groups the product offers, in display order; replaces the current set',
    }),
  },
  { additionalProperties: false },
)
