import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CampaignErrors } from '../campaigns/index.ts'
import { LoyaltyErrors } from './loyalty.errors.ts'
import {
  AccrueBody,
  CreateProgramBody,
  CreateRewardBody,
  JoinBody,
  type LoyaltyReward,
  LoyaltyRewardSchema,
  MemberParams,
  MemberQuery,
  MemberSchema,
  MovementSchema,
  PointsResultSchema,
  ProgramListQuery,
  ProgramSchema,
  RedeemBody,
  RewardParams,
  UpdateProgramBody,
  UpdateRewardBody,
} from './loyalty.schemas.ts'
import type { LoyaltyService, Redemption } from './loyalty.service.ts'

const tags = ['loyalty']
const Program = Type.Ref('LoyaltyProgram')
const Reward = Type.Ref('LoyaltyReward')
/** Prices in points are money settings: owners and managers set them, as tax rates (docs/decisions.md "Scopes"). */
const rewardWriteScope = 'settings:write'
const Member = Type.Ref('LoyaltyMember')

/** The loyalty service, and the use cases that take other domains with it (src/flows). */
interface LoyaltyRoutesOptions {
  loyalty: LoyaltyService
  /** A reward redeemed: its voucher issued or its amount taken off an order (flows/redeem-reward.ts). */
  redeemReward(ctx: RequestContext, input: RedeemBody): Promise<Redemption>
  /** A reward priced, its campaign checked (flows/define-reward.ts). */
  defineReward(ctx: RequestContext, programId: string, input: CreateRewardBody): Promise<LoyaltyReward>
}

export const loyaltyRoutes: FastifyPluginAsyncTypebox<LoyaltyRoutesOptions> = async (
  app,
  { loyalty, redeemReward, defineReward },
) => {
  app.addSchema(ProgramSchema)
  app.addSchema(MovementSchema)
  app.addSchema(MemberSchema)
  app.addSchema(LoyaltyRewardSchema)

  app.get(
    '/loyalty/programs',
    {
      config: { scope: 'loyalty:read' },
      schema: {
        operationId: 'listLoyaltyPrograms',
        tags,
        summary: 'List loyalty programs (at most one is active)',
        querystring: ProgramListQuery,
        response: { 200: ListOf(Program) },
      },
    },
    async (request) => loyalty.listPrograms(request.ctx, request.query),
  )

  app.post(
    '/loyalty/programs',
    {
      config: { scope: 'loyalty:write' },
      schema: {
        operationId: 'createLoyaltyProgram',
        tags,
        summary:
          'Create a program: points per currency unit, rounding, exclusions, expiry, tiers (409 LOYALTY_ACTIVE_PROGRAM_EXISTS for a second active one)',
        body: CreateProgramBody,
        response: { 201: DataOf(Program), ...errorResponses(LoyaltyErrors.ACTIVE_PROGRAM_EXISTS) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await loyalty.createProgram(request.ctx, request.body) }),
  )

  app.get(
    '/loyalty/programs/:id',
    {
      config: { scope: 'loyalty:read' },
      schema: {
        operationId: 'getLoyaltyProgram',
        tags,
        summary: 'One loyalty program',
        params: IdParams,
        response: { 200: DataOf(Program), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await loyalty.getProgram(request.ctx, request.params.id) }),
  )

  app.patch(
    '/loyalty/programs/:id',
    {
      config: { scope: 'loyalty:write' },
      schema: {
        operationId: 'updateLoyaltyProgram',
        tags,
        summary: 'Update a program; If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateProgramBody,
        response: {
          200: DataOf(Program),
          ...errorResponses(404, STALE_VERSION, LoyaltyErrors.ACTIVE_PROGRAM_EXISTS),
        },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return {
        data: await loyalty.updateProgram(request.ctx, request.params.id, fields, expectedVersion(request, version)),
      }
    },
  )

  app.post(
    '/loyalty/members',
    {
      config: { scope: 'loyalty:write' },
      schema: {
        operationId: 'joinLoyaltyProgram',
        tags,
        summary: 'A customer joins the active program: 201 joined, 200 already a member',
        body: JoinBody,
        response: {
          200: DataOf(Member),
          201: DataOf(Member),
          ...errorResponses(LoyaltyErrors.NO_ACTIVE_PROGRAM),
        },
      },
    },
    async (request, reply) => {
      const { member, created } = await loyalty.join(request.ctx, request.body)
      return reply.code(created ? 201 : 200).send({ data: member })
    },
  )

  app.get(
    '/loyalty/members/:customerId',
    {
      config: { scope: 'loyalty:read' },
      schema: {
        operationId: 'getLoyaltyMember',
        tags,
        summary:
          "A customer's membership: balance, tier, lifetime points, progress to the next tier, and the points history (newest first; limit and cursor page it)",
        params: MemberParams,
        querystring: MemberQuery,
        response: { 200: DataOf(Member), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await loyalty.member(request.ctx, request.params.customerId, request.query) }),
  )

  app.post(
    '/loyalty/points/accrue',
    {
      // Points by hand are money out of the till's sight: owners, managers and apps granted loyalty:adjust.
      config: { scope: 'loyalty:adjust' },
      schema: {
        operationId: 'accrueLoyaltyPoints',
        tags,
        summary:
          'Add points by hand, with a reason, at most 100,000 a call (the customer joins if not yet a member); needs loyalty:adjust',
        body: AccrueBody,
        response: {
          201: DataOf(PointsResultSchema),
          ...errorResponses(LoyaltyErrors.NO_ACTIVE_PROGRAM),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await loyalty.accrue(request.ctx, request.body) }),
  )

  app.post(
    '/loyalty/points/redeem',
    {
      config: { scope: 'loyalty:write' },
      schema: {
        operationId: 'redeemLoyaltyPoints',
        tags,
        summary:
          "Redeem a reward of the program at its price (reward_id; an amount off an open order takes only the share the order's total leaves room for), oldest-expiring points first (409 INSUFFICIENT_POINTS). A program that prices no reward takes points for an amount off an order",
        body: RedeemBody,
        response: {
          201: DataOf(PointsResultSchema),
          ...errorResponses(
            404,
            LoyaltyErrors.NO_ACTIVE_PROGRAM,
            LoyaltyErrors.INSUFFICIENT_POINTS,
            LoyaltyErrors.NOTHING_TO_REDEEM,
            LoyaltyErrors.REWARD_UNAVAILABLE,
            LoyaltyErrors.ORDER_NOT_OPEN,
            LoyaltyErrors.ORDER_ALREADY_PAID,
            CampaignErrors.ENDED,
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await redeemReward(request.ctx, request.body) }),
  )

  app.get(
    '/loyalty/programs/:id/rewards',
    {
      config: { scope: 'loyalty:read' },
      schema: {
        operationId: 'listLoyaltyProgramRewards',
        tags,
        summary: "The program's rewards and their prices in points",
        params: IdParams,
        response: { 200: Type.Object({ data: Type.Array(Reward) }), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await loyalty.listRewards(request.ctx, request.params.id) }),
  )

  app.post(
    '/loyalty/programs/:id/rewards',
    {
      config: { scope: rewardWriteScope },
      schema: {
        operationId: 'createLoyaltyProgramReward',
        tags,
        summary: 'Price a reward in points: an amount off an order, or a voucher of a campaign (owners and managers)',
        params: IdParams,
        body: CreateRewardBody,
        response: { 201: DataOf(Reward), ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await defineReward(request.ctx, request.params.id, request.body) }),
  )

  app.patch(
    '/loyalty/programs/:id/rewards/:rewardId',
    {
      config: { scope: rewardWriteScope },
      schema: {
        operationId: 'updateLoyaltyProgramReward',
        tags,
        summary: "Change a reward's name, price, amount or whether it can be redeemed; If-Match or version guards",
        params: RewardParams,
        body: UpdateRewardBody,
        response: { 200: DataOf(Reward), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      const { id, rewardId } = request.params
      return {
        data: await loyalty.updateReward(request.ctx, id, rewardId, fields, expectedVersion(request, version)),
      }
    },
  )

  app.delete(
    '/loyalty/programs/:id/rewards/:rewardId',
    {
      config: { scope: rewardWriteScope },
      schema: {
        operationId: 'deleteLoyaltyProgramReward',
        tags,
        summary: 'Delete a reward (redemptions made keep what they were)',
        params: RewardParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await loyalty.deleteReward(request.ctx, request.params.id, request.params.rewardId)
      return reply.code(204).send(null)
    },
  )
}
