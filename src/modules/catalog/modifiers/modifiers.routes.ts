import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import {
  AttachGroupsBody,
  CreateGroupBody,
  CreateOptionBody,
  GroupListQuery,
  ModifierGroupSchema,
  ModifierOptionSchema,
  OptionParams,
  UpdateGroupBody,
  UpdateOptionBody,
} from './modifiers.schemas.ts'
import type { ModifiersService } from './modifiers.service.ts'

const tags = ['catalog']
const Group = Type.Ref('ModifierGroup')
const Option = Type.Ref('ModifierOption')
const NoContent = Type.Null({ description: 'deleted' })

export const modifierRoutes: FastifyPluginAsyncTypebox<{ modifiers: ModifiersService }> = async (
  app,
  { modifiers },
) => {
  app.addSchema(ModifierOptionSchema)
  app.addSchema(ModifierGroupSchema)

  app.get(
    '/modifiers',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listModifiers',
        tags,
        summary: 'List modifier groups with their options, optionally only those attached to a product',
        querystring: GroupListQuery,
        response: { 200: ListOf(Group) },
      },
    },
    async (request) => modifiers.list(request.ctx, request.query),
  )

  app.post(
    '/modifiers',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createModifier',
        tags,
        summary: 'Create a modifier group, optionally with its options',
        body: CreateGroupBody,
        response: { 201: DataOf(Group) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await modifiers.create(request.ctx, request.body) }),
  )

  app.get(
    '/modifiers/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getModifier',
        tags,
        summary: 'One modifier group with its options',
        params: IdParams,
        response: { 200: DataOf(Group), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await modifiers.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/modifiers/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateModifier',
        tags,
        summary: 'Update a modifier group (min_selections may not exceed max_selections)',
        params: IdParams,
        body: UpdateGroupBody,
        response: { 200: DataOf(Group), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await modifiers.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.delete(
    '/modifiers/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteModifier',
        tags,
        summary: 'Delete a modifier group, its options and its attachments to products',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request, reply) => {
      await modifiers.remove(request.ctx, request.params.id, expectedVersion(request))
      return reply.code(204).send(null)
    },
  )

  app.post(
    '/modifiers/:id/options',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createModifierOption',
        tags,
        summary: 'Add an option to a modifier group',
        params: IdParams,
        body: CreateOptionBody,
        response: { 201: DataOf(Option), ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await modifiers.addOption(request.ctx, request.params.id, request.body) }),
  )

  app.patch(
    '/modifiers/:id/options/:optionId',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateModifierOption',
        tags,
        summary: 'Update a modifier option',
        params: OptionParams,
        body: UpdateOptionBody,
        response: { 200: DataOf(Option), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      const { id, optionId } = request.params
      return {
        data: await modifiers.updateOption(request.ctx, id, optionId, fields, expectedVersion(request, version)),
      }
    },
  )

  app.delete(
    '/modifiers/:id/options/:optionId',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteModifierOption',
        tags,
        summary: 'Delete a modifier option',
        params: OptionParams,
        response: { 204: NoContent, ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request, reply) => {
      await modifiers.removeOption(request.ctx, request.params.id, request.params.optionId, expectedVersion(request))
      return reply.code(204).send(null)
    },
  )

  app.get(
    '/products/:id/modifiers',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listProductModifiers',
        tags,
        summary: 'The modifier groups a product offers, in display order',
        params: IdParams,
        response: { 200: DataOf(Type.Array(Group)), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await modifiers.productGroups(request.ctx, request.params.id) }),
  )

  app.put(
    '/products/:id/modifiers',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'setProductModifiers',
        tags,
        summary: 'Set the modifier groups a product offers (replaces the set; an empty list detaches all)',
        params: IdParams,
        body: AttachGroupsBody,
        response: { 200: DataOf(Type.Array(Group)), ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await modifiers.setProductGroups(request.ctx, request.params.id, request.body.modifier_group_ids),
    }),
  )
}
