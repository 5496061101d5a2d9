import { type Static, Type } from 'typebox'
import { Money, PageQuery, Timestamp, Version } from '../../platform/http/schemas.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])
const Id = Type.String({ minLength: 1, maxLength: 100 })
const Rounding = Type.Union([Type.Literal('floor'), Type.Literal('nearest'), Type.Literal('ceil')])
const TierBasis = Type.Union([Type.Literal('lifetime_points'), Type.Literal('lifetime_spend')])
const ProgramStatus = Type.Union([Type.Literal('active'), Type.Literal('inactive')])

const TierSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50 }),
    threshold: Type.Number({
      minimum: 0,
      description: 'lifetime points, or lifetime spend in the currency (tier_basis), from which a member holds it',
    }),
    multiplier: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, default: 1, description: 'earning multiplier, up to 4 decimals' }),
    ),
    benefits: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20, default: [] })),
  },
  { additionalProperties: false },
)
export type TierInput = Static<typeof TierSchema>

export const ProgramSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Type.Union(ProgramStatus.anyOf, { description: 'active (one per org) or inactive' }),
    points_per_unit: Type.Number({ description: 'points per currency unit spent' }),
    rounding: Type.Union(Rounding.anyOf, { description: 'applied once per accrual' }),
    excluded_product_ids: Type.Array(Type.String()),
    excluded_category_ids: Type.Array(Type.String()),
    expiry_days: Nullable(Type.Integer()),
    auto_enroll: Type.Boolean({ description: 'a customer joins on the first order that would earn points' }),
    point_value: Type.Number({ description: 'what one point takes off an order when redeemed' }),
    tier_basis: TierBasis,
    tiers: Type.Array(TierSchema),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'LoyaltyProgram' },
)
export type Program = Static<typeof ProgramSchema>

const programFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  status: ProgramStatus,
  points_per_unit: Type.Number({ exclusiveMinimum: 0, maximum: 10_000, description: 'up to 4 decimals' }),
  rounding: Rounding,
  excluded_product_ids: Type.Array(Id, { maxItems: 1000, uniqueItems: true }),
  excluded_category_ids: Type.Array(Id, { maxItems: 1000, uniqueItems: true }),
  expiry_days: Nullable(Type.Integer({ minimum: 1, maximum: 36_500 })),
  auto_enroll: Type.Boolean(),
  point_value: Type.Number({ minimum: 0, description: 'in the org currency, up to 4 decimals beyond its own' }),
  tier_basis: TierBasis,
  tiers: Type.Array(TierSchema, { maxItems: 20 }),
}

export const CreateProgramBody = Type.Object(
  {
    name: programFields.name,
    status: Type.Optional(programFields.status),
    points_per_unit: Type.Optional(programFields.points_per_unit),
    rounding: Type.Optional(programFields.rounding),
    excluded_product_ids: Type.Optional(programFields.excluded_product_ids),
    excluded_category_ids: Type.Optional(programFields.excluded_category_ids),
    expiry_days: Type.Optional(programFields.expiry_days),
    auto_enroll: Type.Optional(programFields.auto_enroll),
    point_value: Type.Optional(programFields.point_value),
    tier_basis: Type.Optional(programFields.tier_basis),
    tiers: Type.Optional(programFields.tiers),
  },
  { additionalProperties: false },
)
export type CreateProgramBody = Static<typeof CreateProgramBody>

export const UpdateProgramBody = Type.Object(
  {
    name: Type.Optional(programFields.name),
    status: Type.Optional(programFields.status),
    points_per_unit: Type.Optional(programFields.points_per_unit),
    rounding: Type.Optional(programFields.rounding),
    excluded_product_ids: Type.Optional(programFields.excluded_product_ids),
    excluded_category_ids: Type.Optional(programFields.excluded_category_ids),
    expiry_days: Type.Optional(programFields.expiry_days),
    auto_enroll: Type.Optional(programFields.auto_enroll),
    point_value: Type.Optional(programFields.point_value),
    tier_basis: Type.Optional(programFields.tier_basis),
    tiers: Type.Optional(programFields.tiers),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
export type UpdateProgramBody = Static<typeof UpdateProgramBody>

export const ProgramListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type ProgramListQuery = Static<typeof ProgramListQuery>

export const MovementSchema = Type.Object(
  {
    id: Type.String(),
    kind: Type.String({
      description: 'accrual, adjustment, redemption, expiry, refund, or reversal (a redemption given back by a void)',
    }),
    points: Type.Integer({ description: 'signed change of the balance' }),
    balance_after: Type.Integer(),
    reason: Type.String(),
    order_id: Nullable(Type.String()),
    reward: Nullable(Type.Object({}, { additionalProperties: true })),
    created_at: Timestamp,
  },
  { $id: 'LoyaltyMovement' },
)
export type Movement = Static<typeof MovementSchema>

export const MemberSchema = Type.Object(
  {
    id: Type.String(),
    customer_id: Type.String(),
    program_id: Type.String(),
    balance: Type.Integer({ description: 'points that can be redeemed now' }),
    lifetime_points: Type.Integer(),
    lifetime_spend: Money,
    tier: Nullable(
      Type.Object({ name: Type.String(), multiplier: Type.Number(), benefits: Type.Array(Type.String()) }),
    ),
    next_tier: Nullable(
      Type.Object({
        name: Type.String(),
        threshold: Type.Number(),
        remaining: Type.Number({ description: 'points, or spend, still missing' }),
      }),
    ),
    joined_at: Timestamp,
    history: Type.Array(Type.Ref('LoyaltyMovement'), { description: 'points movements, newest first' }),
    history_pagination: Type.Object({ nextCursor: Nullable(Type.String()), hasMore: Type.Boolean() }),
  },
  { $id: 'LoyaltyMember' },
)
export type Member = Static<typeof MemberSchema>

export const MemberParams = Type.Object({ customerId: Id })
export const MemberQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })
export type MemberQuery = Static<typeof MemberQuery>

export const JoinBody = Type.Object({ customer_id: Id }, { additionalProperties: false })
export type JoinBody = Static<typeof JoinBody>

export const AccrueBody = Type.Object(
  {
    customer_id: Id,
    points: Type.Integer({
      minimum: 1,
      maximum: 100_000,
      description: 'at most 100,000 a call: an adjustment, not a mint',
    }),
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  { additionalProperties: false },
)
export type AccrueBody = Static<typeof AccrueBody>

export const RedeemBody = Type.Object(
  {
    customer_id: Id,
    reward_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'a reward of the active program (GET /loyalty/programs/:id/rewards): its price is what is charged',
      }),
    ),
    order_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'for an order_discount reward: the open order, with nothing paid yet, that the amount comes off',
      }),
    ),
    points: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description:
          'without reward_id, for a program that prices no reward: at most this many points (point_value each) off the order in reward',
      }),
    ),
    reward: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              type: Type.Literal('order_discount', {
                description: "the points' value (point_value each) off an open order with nothing paid yet",
              }),
              order_id: Id,
            },
            { additionalProperties: false },
          ),
          Type.Object(
            {
              type: Type.Literal('voucher', {
                description: 'refused: a voucher is a priced reward of the program (reward_id)',
              }),
              campaign_id: Id,
            },
            { additionalProperties: false },
          ),
        ],
        { description: 'with points, for a program that prices no reward: what the points buy' },
      ),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type RedeemBody = Static<typeof RedeemBody>

export const PointsResultSchema = Type.Object({
  member: Type.Ref('LoyaltyMember'),
  movement: Type.Ref('LoyaltyMovement'),
  reward: Type.Optional(
    Type.Object({
      type: Type.String(),
      reward_id: Type.Optional(Type.String()),
      order_id: Type.Optional(Type.String()),
      amount: Type.Optional(Money),
      campaign_id: Type.Optional(Type.String()),
      voucher_code: Type.Optional(Type.String()),
    }),
  ),
})
/** The reward part of a redemption's answer. */
export type Reward = NonNullable<Static<typeof PointsResultSchema>['reward']>

const RewardGives = Type.Union([
  Type.Object(
    {
      type: Type.Literal('order_discount', { description: 'this amount off an open order' }),
      amount: Type.Number({ exclusiveMinimum: 0, description: 'in the org currency' }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('voucher', {
        description: 'a single-use voucher of this campaign, which must be active or scheduled when redeemed',
      }),
      campaign_id: Id,
    },
    { additionalProperties: false },
  ),
])

export const LoyaltyRewardSchema = Type.Object(
  {
    id: Type.String(),
    program_id: Type.String(),
    name: Type.String(),
    points: Type.Integer({ description: 'its price in points' }),
    gives: RewardGives,
    active: Type.Boolean({ description: 'an inactive reward cannot be redeemed' }),
    version: Version,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'LoyaltyReward' },
)
export type LoyaltyReward = Static<typeof LoyaltyRewardSchema>

export const CreateRewardBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    points: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
    gives: RewardGives,
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
)
export type CreateRewardBody = Static<typeof CreateRewardBody>

export const UpdateRewardBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    points: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000 })),
    amount: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, description: 'a new amount for an order_discount reward' }),
    ),
    active: Type.Optional(Type.Boolean()),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
)
export type UpdateRewardBody = Static<typeof UpdateRewardBody>

export const RewardParams = Type.Object({ id: Id, rewardId: Id })
