import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { expectedVersion, STALE_VERSION } from '../../../platform/http/concurrency.ts'
import { DataOf, errorResponses, IdParams, ListOf } from '../../../platform/http/schemas.ts'
import { CategoryListQuery, CategorySchema, CreateCategoryBody, UpdateCategoryBody } from './categories.schemas.ts'
import type { CategoriesService } from './categories.service.ts'

const tags = ['catalog']
const Category = Type.Ref('Category')

export const categoryRoutes: FastifyPluginAsyncTypebox<{ categories: CategoriesService }> = async (
  app,
  { categories },
) => {
  app.addSchema(CategorySchema)

  app.get(
    '/categories',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'listCategories',
        tags,
        summary:
          'List categories by sort_order then id, optionally the children of one parent (`parent_id=null`: top level)',
        querystring: CategoryListQuery,
        response: { 200: ListOf(Category) },
      },
    },
    async (request) => categories.list(request.ctx, request.query),
  )

  app.post(
    '/categories',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'createCategory',
        tags,
        summary: 'Create a category, optionally under a parent',
        body: CreateCategoryBody,
        response: { 201: DataOf(Category) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await categories.create(request.ctx, request.body) }),
  )

  app.get(
    '/categories/:id',
    {
      config: { scope: 'catalog:read' },
      schema: {
        operationId: 'getCategory',
        tags,
        summary: 'One category',
        params: IdParams,
        response: { 200: DataOf(Category), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await categories.get(request.ctx, request.params.id) }),
  )

  app.patch(
    '/categories/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'updateCategory',
        tags,
        summary: 'Update a category; a new parent_id may not be the category or one of its descendants',
        params: IdParams,
        body: UpdateCategoryBody,
        response: { 200: DataOf(Category), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body
      return {
        data: await categories.update(request.ctx, request.params.id, fields, expectedVersion(request, version)),
      }
    },
  )

  app.delete(
    '/categories/:id',
    {
      config: { scope: 'catalog:write' },
      schema: {
        operationId: 'deleteCategory',
        tags,
        summary: 'Archive a category: is_active becomes false',
        params: IdParams,
        response: { 200: DataOf(Category), ...errorResponses(404, STALE_VERSION) },
      },
    },
    async (request) => ({ data: await categories.archive(request.ctx, request.params.id, expectedVersion(request)) }),
  )
}
