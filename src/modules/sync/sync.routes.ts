import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { gzip } from 'node:zlib'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { TILL_SCOPE, TillStaffSchema } from '../auth/index.ts'
import { CampaignSchema } from '../campaigns/index.ts'
import { CATALOG_SCHEMAS } from '../catalog/index.ts'
import { SettingsSchema } from '../orgs/index.ts'
import { TaxRateSchema } from '../tax/index.ts'
import type { ConflictsService } from './conflicts.service.ts'
import type { OfflineSalesService } from './sales.service.ts'
import {
  CatalogQuery,
  CatalogSnapshotSchema,
  ConflictListQuery,
  NumbersBody,
  NumbersSchema,
  ResolveConflictBody,
  SaleResultSchema,
  SyncConflictSchema,
  SyncOrdersBody,
} from './sync.schemas.ts'
import type { SyncService } from './sync.service.ts'

const tags = ['sync']
const gzipped = promisify(gzip)

/**
 * The till's side of the API (docs/sync.md), for a paired till's own token only (`till:sync`). The snapshot's ETag is
 * the hash of what it says apart from its version, which moves with every transaction in the database: an answer
 * that says nothing new is a 304, and the till keeps the version it has.
 */
export const syncRoutes: FastifyPluginAsyncTypebox<{
  sync: SyncService
  sales: OfflineSalesService
  conflicts: ConflictsService
}> = async (app, { sync, sales, conflicts }) => {
  // The shapes of the modules a snapshot gathers, named as their own routes name them.
  for (const schema of [...CATALOG_SCHEMAS, SettingsSchema, TaxRateSchema, CampaignSchema, TillStaffSchema])
    app.addSchema(schema)
  app.addSchema(CatalogSnapshotSchema)
  app.addSchema(SaleResultSchema)
  app.addSchema(SyncConflictSchema)

  app.post(
    '/sync/orders',
    {
      config: { scope: TILL_SCOPE },
      schema: {
        operationId: 'syncOrders',
        tags,
        summary:
          'Sales a till made offline, up to 500: each recorded once by its client_sale_id, as the till made it, with what did not match as conflicts',
        body: SyncOrdersBody,
        response: { 200: Type.Object({ data: Type.Array(Type.Ref('SyncSaleResult')) }) },
      },
    },
    async (request) => ({ data: await sales.record(request.ctx, request.body.sales) }),
  )

  app.post(
    '/sync/numbers',
    {
      config: { scope: TILL_SCOPE },
      schema: {
        operationId: 'syncNumbers',
        tags,
        summary:
          "Order numbers the till holds for sales it makes offline, topped up to count (default 200): taken from the org's series, never given twice",
        body: Type.Optional(NumbersBody),
        response: { 200: DataOf(NumbersSchema) },
      },
    },
    async (request) => ({ data: { numbers: await sales.numbers(request.ctx, request.body?.count ?? 200) } }),
  )

  app.get(
    '/sync/conflicts',
    {
      config: { scope: 'orders:read' },
      schema: {
        operationId: 'listSyncConflicts',
        tags,
        summary: 'What offline sales left to resolve: stock taken below zero, prices that differed, balances due',
        querystring: ConflictListQuery,
        response: { 200: ListOf(Type.Ref('SyncConflict')) },
      },
    },
    async (request) => conflicts.list(request.ctx, request.query),
  )

  app.post(
    '/sync/conflicts/:id/resolve',
    {
      config: { scope: 'orders:write' },
      schema: {
        operationId: 'resolveSyncConflict',
        tags,
        summary: 'Mark a conflict resolved, saying what was done (a count, a transfer, a payment taken)',
        params: IdParams,
        body: ResolveConflictBody,
        response: { 200: DataOf(Type.Ref('SyncConflict')), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await conflicts.resolve(request.ctx, request.params.id, request.body.resolution) }),
  )

  app.get(
    '/sync/catalog',
    {
      config: { scope: TILL_SCOPE },
      schema: {
        operationId: 'syncCatalog',
        tags,
        summary:
          'Everything a till needs to sell at its location, whole or (since) only what changed; gzip on request, 304 with If-None-Match',
        querystring: CatalogQuery,
        response: {
          200: DataOf(Type.Ref('CatalogSnapshot')),
          304: Type.Null({ description: 'nothing changed since the ETag sent in If-None-Match' }),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      const snapshot = await sync.catalog(request.ctx, request.query)
      const { version, ...content } = snapshot
      const text = JSON.stringify(content)
      const etag = `"${createHash('sha256').update(text).digest('base64url')}"`
      reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding')
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null)
      // Written once here (the hash needed it as text), so the answer is sent as these bytes, not serialized again.
      const raw = reply as unknown as FastifyReply
      // The version first, then the rest as hashed: one JSON.stringify of 10,000 products, not two.
      const body = `{"data":{"version":${JSON.stringify(version)},${text.slice(1)}}`
      raw.type('application/json; charset=utf-8')
      if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return raw.send(body)
      return raw.header('content-encoding', 'gzip').send(await gzipped(body))
    },
  )
}
