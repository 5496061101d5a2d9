import { type Static, Type } from 'typebox'
import { type Dated, Timestamp, Version } from '../../platform/http/schemas.ts'

const Text = (maxLength: number, description?: string) => Type.String({ maxLength, description })

const AddressSchema = Type.Object(
  {
    line1: Type.Optional(Text(200)),
    line2: Type.Optional(Text(200)),
    city: Type.Optional(Text(100)),
    region: Type.Optional(Text(100, 'state, province or county')),
    postal_code: Type.Optional(Text(20)),
    country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2, e.g. NZ' })),
  },
  { additionalProperties: false },
)

const tipsFields = {
  enabled: Type.Boolean({ description: 'whether orders and payments take a tip' }),
  percentages: Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
    maxItems: 4,
    uniqueItems: true,
    description: 'the suggested percentages the till shows, e.g. [10, 15, 20]',
  }),
  base: Type.Union([Type.Literal('before_tax'), Type.Literal('after_tax')], {
    description: 'whether a percentage applies to the total before or after tax',
  }),
  max_percent: Type.Integer({
    minimum: 1,
    maximum: 1000,
    description: 'the largest tip an order takes, as a percentage of its total before the tip (default 50)',
  }),
}

const TipsSchema = Type.Object(tipsFields, { additionalProperties: false })

/** What a PATCH sets of the tips: max_percent stays as it was when left out. */
const TipsInput = Type.Object(
  { ...tipsFields, max_percent: Type.Optional(tipsFields.max_percent) },
  { additionalProperties: false },
)

const ManagerApprovalSchema = Type.Object(
  {
    voids: Type.Boolean({ description: 'a void by staff needs a manager' }),
    refunds: Type.Boolean({ description: 'a refund by staff needs a manager' }),
    discount_percent_above: Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'order discounts by staff above this share of the subtotal need a manager; null: never',
    }),
  },
  {
    additionalProperties: false,
    description: "what staff may not do alone: a manager's PIN on the same till, or a manager, approves it",
  },
)

const settingsFields = {
  name: Type.String({ minLength: 1, maxLength: 200, description: "the store's name, on receipts" }),
  phone: Text(50),
  address: AddressSchema,
  timezone: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'IANA time zone of the store (e.g. Pacific/Auckland); locations keep their own',
  }),
  receipt_header: Text(1000, 'printed at the top of every receipt'),
  receipt_footer: Text(1000, 'printed at the bottom of every receipt'),
  prices_include_tax: Type.Boolean({ description: 'whether catalog prices already contain the tax' }),
  tips: TipsSchema,
  manager_approval: ManagerApprovalSchema,
}

export const SettingsSchema = Type.Object(
  {
    ...settingsFields,
    currency: Type.String({ description: 'ISO 4217, chosen when the org was made; not changed through the API' }),
    version: Version,
    updated_at: Timestamp,
  },
  { $id: 'Settings' },
)
export type Settings = Dated<Static<typeof SettingsSchema>, 'updated_at'>

export const UpdateSettingsBody = Type.Object(
  {
    name: Type.Optional(settingsFields.name),
    phone: Type.Optional(settingsFields.phone),
    address: Type.Optional(AddressSchema),
    timezone: Type.Optional(settingsFields.timezone),
    receipt_header: Type.Optional(settingsFields.receipt_header),
    receipt_footer: Type.Optional(settingsFields.receipt_footer),
    prices_include_tax: Type.Optional(settingsFields.prices_include_tax),
    tips: Type.Optional(TipsInput),
    manager_approval: Type.Optional(ManagerApprovalSchema),
    version: Type.Optional(Version),
  },
  { additionalProperties: false, minProperties: 1 },
)
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>
