import { type Static, Type } from 'typebox'
import { Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Id = Type.String({ minLength: 1, maxLength: 100 })
const Ids = Type.Array(Id, { maxItems: 500, uniqueItems: true })
const Percent = Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'percent, up to 4 decimals' })
const PositiveMoney = Type.Number({ exclusiveMinimum: 0, description: 'decimal amount in the currency major unit' })
const Count = Type.Integer({ minimum: 1, maximum: 10_000 })
const RuleId = Type.Optional(
  Type.String({ minLength: 1, maxLength: 100, description: 'kept when given on an update; assigned when absent' }),
)
const Target = Type.Union([Type.Literal('order'), Type.Literal('line')], {
  description: 'order: once on the eligible lines together; line: on each eligible line (fixed amounts per unit)',
})

const PercentageRule = Type.Object(
  { id: RuleId, type: Type.Literal('percentage'), percent: Percent, target: Type.Optional(Target) },
  { additionalProperties: false },
)
const FixedAmountRule = Type.Object(
  { id: RuleId, type: Type.Literal('fixed_amount'), amount: PositiveMoney, target: Type.Optional(Target) },
  { additionalProperties: false },
)
const BuyXGetYRule = Type.Object(
  {
    id: RuleId,
    type: Type.Literal('buy_x_get_y'),
    buy_quantity: Count,
    get_quantity: Count,
    get_product_ids: Type.Optional(Ids),
    get_category_ids: Type.Optional(Ids),
    get_percent: Type.Optional(Percent),
    max_applications: Type.Optional(Count),
  },
  { additionalProperties: false },
)
const MultiBuyRule = Type.Object(
  {
    id: RuleId,
    type: Type.Literal('multi_buy'),
    quantity: Type.Integer({ minimum: 2, maximum: 10_000 }),
    price: Type.Number({ minimum: 0, description: 'what `quantity` eligible units cost together' }),
    max_applications: Type.Optional(Count),
  },
  { additionalProperties: false },
)
const FreeItemRule = Type.Object(
  { id: RuleId, type: Type.Literal('free_item'), product_id: Id, quantity: Type.Optional(Count) },
  { additionalProperties: false },
)
const PointsMultiplierRule = Type.Object(
  {
    id: RuleId,
    type: Type.Literal('points_multiplier'),
    multiplier: Type.Number({
      exclusiveMinimum: 0,
      maximum: 100,
      description: 'multiplies the loyalty points the order earns (2 = double points), up to 4 decimals',
    }),
  },
  { additionalProperties: false },
)
export const RuleInput = Type.Union([
  PercentageRule,
  FixedAmountRule,
  BuyXGetYRule,
  MultiBuyRule,
  FreeItemRule,
  PointsMultiplierRule,
])
export type RuleInput = Static<typeof RuleInput>

const Hhmm = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, 24-hour' })

const ConditionsSchema = Type.Object(
  {
    product_ids: Type.Optional(Ids),
    category_ids: Type.Optional(Ids),
    min_spend: Type.Optional(PositiveMoney),
    min_quantity: Type.Optional(Count),
    customer_tiers: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    customer_tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    location_ids: Type.Optional(Ids),
    days_of_week: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
        minItems: 1,
        maxItems: 7,
        uniqueItems: true,
        description: 'ISO days, 1 = Monday … 7 = Sunday, in the selling location’s time zone',
      }),
    ),
    hours: Type.Optional(
      Type.Object(
        { from: Hhmm, to: Hhmm },
        { additionalProperties: false, description: 'local time window; from > to spans midnight' },
      ),
    ),
  },
  { additionalProperties: false },
)
export type Conditions = Static<typeof ConditionsSchema>

const Stacking = Type.Union([Type.Literal('exclusive'), Type.Literal('stackable')])
const StackingClass = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9_-]+$' })
/** Every state a campaign can be in (docs/campaigns.md's state table). */
const CampaignStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('scheduled'),
  Type.Literal('active'),
  Type.Literal('paused'),
  Type.Literal('ended'),
])

export const CampaignSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    status: CampaignStatus,
    priority: Type.Integer(),
    stacking: Type.Union(Stacking.anyOf, { description: 'exclusive (alone) or stackable (with others of its class)' }),
    stacking_class: Type.String(),
    starts_at: Nullable(Timestamp),
    ends_at: Nullable(Timestamp),
    conditions: ConditionsSchema,
    rules: Type.Array(Type.Intersect([Type.Object({ id: Type.String() }), RuleInput])),
    requires_voucher: Type.Boolean(),
    usage_limit: Nullable(Type.Integer()),
    usage_count: Type.Integer({ description: 'uses counted against usage_limit (only kept when there is a limit)' }),
    per_customer_limit: Nullable(Type.Integer()),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Campaign' },
)
export type Campaign = Static<typeof CampaignSchema>

const CampaignFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  priority: Type.Integer({ minimum: -1000, maximum: 1000, description: 'higher applies first' }),
  stacking: Stacking,
  stacking_class: StackingClass,
  starts_at: Nullable(Timestamp),
  ends_at: Nullable(Timestamp),
  conditions: ConditionsSchema,
  rules: Type.Array(RuleInput, { minItems: 1, maxItems: 10 }),
  requires_voucher: Type.Boolean(),
  usage_limit: Nullable(Type.Integer({ minimum: 1 })),
  per_customer_limit: Nullable(Type.Integer({ minimum: 1 })),
}

export const CreateCampaignBody = Type.Object(
  {
    name: CampaignFields.name,
    rules: CampaignFields.rules,
    description: Type.Optional(CampaignFields.description),
    priority: Type.Optional(CampaignFields.priority),
    stacking: Type.Optional(CampaignFields.stacking),
    stacking_class: Type.Optional(CampaignFields.stacking_class),
    starts_at: Type.Optional(CampaignFields.starts_at),
    ends_at: Type.Optional(CampaignFields.ends_at),
    conditions: Type.Optional(CampaignFields.conditions),
    requires_voucher: Type.Optional(CampaignFields.requires_voucher),
    usage_limit: Type.Optional(CampaignFields.usage_limit),
    per_customer_limit: Type.Optional(CampaignFields.per_customer_limit),
    status: Type.Optional(
      Type.Union([Type.Literal('draft'), Type.Literal('scheduled'), Type.Literal('active')], {
        description:
          'default draft (nothing runs by accident); scheduled runs from starts_at; active runs now (starts_at, if given, must not be later)',
      }),
    ),
  },
  { additionalProperties: false },
)
export type CreateCampaignBody = Static<typeof CreateCampaignBody>

export const UpdateCampaignBody = Type.Object(
  {
    name: Type.Optional(CampaignFields.name),
    rules: Type.Optional(CampaignFields.rules),
    description: Type.Optional(CampaignFields.description),
    priority: Type.Optional(CampaignFields.priority),
    stacking: Type.Optional(CampaignFields.stacking),
    stacking_class: Type.Optional(CampaignFields.stacking_class),
    starts_at: Type.Optional(CampaignFields.starts_at),
    ends_at: Type.Optional(CampaignFields.ends_at),
    conditions: Type.Optional(CampaignFields.conditions),
    requires_voucher: Type.Optional(CampaignFields.requires_voucher),
    usage_limit: Type.Optional(CampaignFields.usage_limit),
    per_customer_limit: Type.Optional(CampaignFields.per_customer_limit),
    status: Type.Optional(
      Type.Union(CampaignStatus.anyOf, {
        description: 'a move of docs/campaigns.md’s state table; any other is a 409',
      }),
    ),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
export type UpdateCampaignBody = Static<typeof UpdateCampaignBody>

export const CampaignListQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(CampaignStatus),
  },
  { additionalProperties: false },
)
export type CampaignListQuery = Static<typeof CampaignListQuery>

export const CampaignStatsSchema = Type.Object(
  {
    campaign_id: Type.String(),
    currency: Type.String(),
    redemptions: Type.Integer({ description: 'orders the campaign discounted, not counting voided ones' }),
    voucher_redemptions: Type.Integer(),
    orders: Type.Integer(),
    discount_given: Money,
    revenue: Money,
    unique_customers: Type.Integer(),
  },
  { $id: 'CampaignStats' },
)
export type CampaignStats = Static<typeof CampaignStatsSchema>

export const VoucherSchema = Type.Object(
  {
    id: Type.String(),
    campaign_id: Type.String(),
    code: Type.String({
      description: 'the code; in lists, masked but for its last four characters (`*****ER10`) without campaigns:write',
    }),
    max_uses: Type.Integer(),
    uses: Type.Integer(),
    customer_id: Nullable(Type.String()),
    created_at: Timestamp,
  },
  { $id: 'Voucher' },
)
export type Voucher = Static<typeof VoucherSchema>

export const CreateVouchersBody = Type.Object(
  {
    code: Type.Optional(
      Type.String({
        minLength: 4,
        maxLength: 40,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'one chosen code; omit it to generate `count` codes',
      }),
    ),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'codes to generate, default 1' })),
    max_uses: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'default 1 (single use)' })),
    customer_id: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false },
)
export type CreateVouchersBody = Static<typeof CreateVouchersBody>

export const VoucherListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type VoucherListQuery = Static<typeof VoucherListQuery>

/** What the till is told about a campaign that applied: each discount names its campaign and rule. */
export const AppliedCampaignSchema = Type.Object({
  campaign_id: Type.String(),
  rule_id: Type.String(),
  rule_type: Type.String(),
  name: Type.String(),
  voucher_code: Nullable(Type.String()),
  amount: Money,
})

/** An active campaign that did not apply, and why, in words for the till and a code to branch on. */
export const SkippedCampaignSchema = Type.Object({
  campaign_id: Type.String(),
  name: Type.String(),
  code: Type.String({
    description:
      'location, schedule, voucher_required, voucher_used_up, voucher_not_for_customer, customer_required, customer_tier, customer_tag, usage_limit, customer_limit, min_spend, min_quantity, no_eligible_items, nothing_to_discount, not_stackable',
  }),
  reason: Type.String(),
})
