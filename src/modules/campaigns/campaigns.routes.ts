import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { bumpCatalogAfterWrite } from '../../platform/cache/index.ts'
import { expectedVersion, STALE_VERSION } from '../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { CampaignErrors } from './campaigns.errors.ts'
import {
  CampaignListQuery,
  CampaignSchema,
  CampaignStatsSchema,
  CreateCampaignBody,
  CreateVouchersBody,
  UpdateCampaignBody,
  VoucherListQuery,
  VoucherSchema,
} from './campaigns.schemas.ts'
import type { CampaignsService } from './campaigns.service.ts'

const tags = ['campaigns']
const Campaign = Type.Ref('Campaign')
const Voucher = Type.Ref('Voucher')

export const campaignRoutes: FastifyPluginAsyncTypebox<{ campaigns: CampaignsService }> = async (
  app,
  { campaigns },
) => {
  app.addSchema(CampaignSchema)
  app.addSchema(CampaignStatsSchema)
  app.addSchema(VoucherSchema)
  // Orders price with the campaigns kept under the catalog version: a campaign write moves it on.
  app.addHook('onSend', bumpCatalogAfterWrite)

  app.get(
    '/campaigns',
    {
      config: { scope: 'campaigns:read' },
      schema: {
        operationId: 'listCampaigns',
        tags,
        summary: 'List campaigns in creation order, optionally of one status',
        querystring: CampaignListQuery,
        response: { 200: ListOf(Campaign) },
      },
    },
    async (request) => campaigns.list(request.ctx, request.query),
  )

  app.post(
    '/campaigns',
    {
      config: { scope: 'campaigns:write' },
      schema: {
        operationId: 'createCampaign',
        tags,
        summary: 'Create a campaign (discount, offer, promotion): rules, conditions, schedule, limits, stacking',
        body: CreateCampaignBody,
        response: { 201: DataOf(Campaign) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.create(request.ctx, request.body) }),
  )

  app.get(
    '/campaigns/:id',
    {
      config: { scope: 'campaigns:read' },
      schema: {
        operationId: 'getCampaign',
        tags,
        summary: 'One campaign',
        params: IdParams,
        response: { 200: DataOf(Campaign), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await campaigns.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/campaigns/:id',
    {
      config: { scope: 'campaigns:write' },
      schema: {
        operationId: 'updateCampaign',
        tags,
        summary:
          'Update status or rules. Moves: draft → scheduled → active → ended, active ↔ paused (others are a 409, code CAMPAIGN_ILLEGAL_MOVE); an ended campaign cannot change (CAMPAIGN_ENDED). If-Match or version guards against lost updates',
        params: IdParams,
        body: UpdateCampaignBody,
        response: {
          200: DataOf(Campaign),
          ...errorResponses(404, STALE_VERSION, CampaignErrors.ENDED, CampaignErrors.ILLEGAL_MOVE),
        },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return {
        data: await campaigns.update(request.ctx, request.params.id, fields, expectedVersion(request, version)),
      }
    },
  )

  app.get(
    '/campaigns/:id/stats',
    {
      config: { scope: 'campaigns:read' },
      schema: {
        operationId: 'getCampaignStats',
        tags,
        summary: 'Performance: redemptions, discount given, orders, revenue, unique customers (voided orders excluded)',
        params: IdParams,
        response: { 200: DataOf(Type.Ref('CampaignStats')), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await campaigns.stats(request.ctx, request.params.id) }),
  )

  app.post(
    '/campaigns/:id/vouchers',
    {
      config: { scope: 'campaigns:write' },
      schema: {
        operationId: 'issueCampaignVouchers',
        tags,
        summary: 'Create vouchers: one chosen code, or `count` generated codes; single use unless max_uses says more',
        params: IdParams,
        body: CreateVouchersBody,
        response: {
          201: Type.Object({ data: Type.Array(Voucher) }),
          ...errorResponses(404, CampaignErrors.ENDED, CampaignErrors.VOUCHER_CODE_TAKEN),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await campaigns.createVouchers(request.ctx, request.params.id, request.body) }),
  )

  app.get(
    '/campaigns/:id/vouchers',
    {
      config: { scope: 'campaigns:read' },
      schema: {
        operationId: 'listCampaignVouchers',
        tags,
        summary: "A campaign's vouchers in creation order, with their uses",
        params: IdParams,
        querystring: VoucherListQuery,
        response: { 200: ListOf(Voucher), ...errorResponses(404) },
      },
    },
    async (request) => campaigns.listVouchers(request.ctx, request.params.id, request.query),
  )
}
