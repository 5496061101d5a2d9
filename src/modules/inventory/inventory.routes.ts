import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { DataOf, errorResponses, IdParams, ListOf } from '../../platform/http/schemas.ts'
import { InventoryErrors } from './inventory.errors.ts'
import {
  AdjustBody,
  AlertListQuery,
  LevelListQuery,
  LevelSchema,
  MovementListQuery,
  MovementSchema,
  ReorderPointBody,
  TransferBody,
  TransferSchema,
} from './inventory.schemas.ts'
import type { InventoryService } from './inventory.service.ts'

const tags = ['inventory']
const Level = Type.Ref('InventoryLevel')
const Movement = Type.Ref('InventoryMovement')
const Transfer = Type.Ref('InventoryTransfer')

export const inventoryRoutes: FastifyPluginAsyncTypebox<{ inventory: InventoryService }> = async (
  app,
  { inventory },
) => {
  app.addSchema(LevelSchema)
  app.addSchema(MovementSchema)
  app.addSchema(TransferSchema)

  app.get(
    '/inventory/levels',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'listInventoryLevels',
        tags,
        summary: 'Stock levels per item and location',
        querystring: LevelListQuery,
        response: { 200: ListOf(Level) },
      },
    },
    async (request) => inventory.listLevels(request.ctx, request.query),
  )

  app.post(
    '/inventory/adjust',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'adjustInventory',
        tags,
        summary: 'Adjust stock with a reason code; reason count sets the level to the counted quantity',
        body: AdjustBody,
        response: { 201: DataOf(Movement), ...errorResponses(InventoryErrors.INSUFFICIENT_STOCK) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await inventory.adjust(request.ctx, request.body) }),
  )

  app.post(
    '/inventory/transfer',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'transferInventory',
        tags,
        summary: 'Move stock between two locations, all lines or none',
        body: TransferBody,
        response: { 201: DataOf(Transfer), ...errorResponses(InventoryErrors.INSUFFICIENT_STOCK) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await inventory.transfer(request.ctx, request.body) }),
  )

  app.get(
    '/inventory/transfers/:id',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'getInventoryTransfer',
        tags,
        summary: 'One transfer',
        params: IdParams,
        response: { 200: DataOf(Transfer), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await inventory.getTransfer(request.ctx, request.params.id) }),
  )

  app.get(
    '/inventory/movements',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'listInventoryMovements',
        tags,
        summary: 'The ledger of every stock change, oldest first',
        querystring: MovementListQuery,
        response: { 200: ListOf(Movement) },
      },
    },
    async (request) => inventory.listMovements(request.ctx, request.query),
  )

  app.put(
    '/inventory/reorder-points',
    {
      config: { scope: 'inventory:write' },
      schema: {
        operationId: 'setReorderPoints',
        tags,
        summary: 'Set or clear the reorder point of an item at a location',
        body: ReorderPointBody,
        response: { 200: DataOf(Level) },
      },
    },
    async (request) => ({ data: await inventory.setReorderPoint(request.ctx, request.body) }),
  )

  app.get(
    '/inventory/alerts',
    {
      config: { scope: 'inventory:read' },
      schema: {
        operationId: 'listInventoryAlerts',
        tags,
        summary: 'Levels at or below their reorder point, and stockouts',
        querystring: AlertListQuery,
        response: { 200: ListOf(Level) },
      },
    },
    async (request) => inventory.listAlerts(request.ctx, request.query),
  )
}
