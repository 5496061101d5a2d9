import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { GiftCardErrors } from './gift-cards.errors.ts'
import {
  DisableGiftCardBody,
  GiftCardSchema,
  IssueGiftCardBody,
  LedgerEntrySchema,
  LedgerQuery,
  LoadGiftCardBody,
  LookupQuery,
} from './gift-cards.schemas.ts'
import type { GiftCardsService } from './gift-cards.service.ts'

const tags = ['gift-cards']
const GiftCard = Type.Ref('GiftCard')

export const giftCardRoutes: FastifyPluginAsyncTypebox<{ giftCards: GiftCardsService }> = async (
  app,
  { giftCards },
) => {
  app.addSchema(GiftCardSchema)
  app.addSchema(LedgerEntrySchema)

  app.post(
    '/gift-cards',
    {
      config: { scope: 'gift_cards:write' },
      schema: {
        operationId: 'issueGiftCard',
        tags,
        summary: 'Issue a gift card with an initial balance; the code is generated',
        body: IssueGiftCardBody,
        response: { 201: DataOf(GiftCard), ...errorResponses(GiftCardErrors.CODE_UNAVAILABLE) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await giftCards.issue(request.ctx, request.body) }),
  )

  app.get(
    '/gift-cards/lookup',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'lookupGiftCard',
        tags,
        summary: 'Find a gift card by its code (balance check)',
        querystring: LookupQuery,
        response: { 200: DataOf(GiftCard), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await giftCards.lookup(request.ctx, request.query.code) }),
  )

  app.get(
    '/gift-cards/:id',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getGiftCard',
        tags,
        summary: 'One gift card',
        params: IdParams,
        response: { 200: DataOf(GiftCard), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await giftCards.get(request.ctx, request.params.id) }),
  )

  app.post(
    '/gift-cards/:id/load',
    {
      config: { scope: 'gift_cards:write' },
      schema: {
        operationId: 'loadGiftCard',
        tags,
        summary: 'Add to the balance',
        params: IdParams,
        body: LoadGiftCardBody,
        response: { 200: DataOf(GiftCard), ...errorResponses(404, GiftCardErrors.DISABLED) },
      },
    },
    async (request) => ({ data: await giftCards.load(request.ctx, request.params.id, request.body) }),
  )

  app.post(
    '/gift-cards/:id/disable',
    {
      config: { scope: 'gift_cards:write' },
      schema: {
        operationId: 'disableGiftCard',
        tags,
        summary: 'Disable a card for good',
        params: IdParams,
        body: DisableGiftCardBody,
        response: { 200: DataOf(GiftCard), ...errorResponses(404, GiftCardErrors.DISABLED) },
      },
    },
    async (request) => ({ data: await giftCards.disable(request.ctx, request.params.id) }),
  )

  app.get(
    '/gift-cards/:id/ledger',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'getGiftCardLedger',
        tags,
        summary: 'Every balance change of a card, oldest first',
        params: IdParams,
        querystring: LedgerQuery,
        response: { 200: ListOf(Type.Ref('GiftCardLedgerEntry')), ...errorResponses(404) },
      },
    },
    async (request) => giftCards.ledger(request.ctx, request.params.id, request.query),
  )
}
