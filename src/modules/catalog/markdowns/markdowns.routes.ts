import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import { CreateMarkdownBody, MarkdownListQuery, MarkdownSchema, UpdateMarkdownBody } from './markdowns.schemas.ts'
import type { MarkdownsService } from './markdowns.service.ts'

const tags = ['catalog']
const Markdown = Type.Ref('Markdown')

export const markdownRoutes: FastifyPluginAsyncTypebox<{ markdowns: MarkdownsService }> = async (
  app,
  { markdowns },
) => {
  app.addSchema(MarkdownSchema)

  app.get(
    '/markdowns',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listMarkdowns',
        tags,
        summary: 'List markdowns, in creation order',
        querystring: MarkdownListQuery,
        response: { 200: ListOf(Markdown) },
      },
    },
    async (request) => markdowns.list(request.ctx, request.query),
  )

  app.post(
    '/markdowns',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createMarkdown',
        tags,
        summary: 'Create a markdown: a percentage or an amount off products or a category, optionally within a window',
        body: CreateMarkdownBody,
        response: { 201: DataOf(Markdown) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await markdowns.create(request.ctx, request.body) }),
  )

  app.get(
    '/markdowns/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getMarkdown',
        tags,
        summary: 'One markdown',
        params: IdParams,
        response: { 200: DataOf(Markdown), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await markdowns.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/markdowns/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateMarkdown',
        tags,
        summary: 'Update a markdown; `product_ids`, when given, replaces its products',
        params: IdParams,
        body: UpdateMarkdownBody,
        response: { 200: DataOf(Markdown), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return { data: await markdowns.update(request.ctx, request.params.id, fields, expectedVersion(request, version)) }
    },
  )

  app.delete(
    '/markdowns/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteMarkdown',
        tags,
        summary: 'Delete a markdown',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request, reply) => {
      await markdowns.remove(request.ctx, request.params.id, expectedVersion(request))
      return reply.code(204).send(null)
    },
  )
}
