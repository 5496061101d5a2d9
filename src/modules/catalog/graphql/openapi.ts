import { GRAPHQL_PATHS } from './plugin.ts'

/** The GraphQL envelope, as the OpenAPI document shows the GraphQL endpoints' answers. */
const GraphqlResponse = {
  type: 'object',
  description: 'GraphQL response envelope; introspect the schema for the shape of data',
  properties: {
    data: {
      type: ['object', 'null'],
      additionalProperties: true,
      description: 'the fields the query selected, null when it could not run',
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          message: { type: 'string' },
          locations: {
            type: 'array',
            items: { type: 'object', properties: { line: { type: 'integer' }, column: { type: 'integer' } } },
          },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          extensions: { type: 'object', additionalProperties: true, properties: { code: { type: 'string' } } },
        },
        required: ['message'],
      },
    },
  },
}

/**
 * @fastify/swagger's `transform`: mercurius declares its routes' request schemas only, so the document adds the
 * GraphQL envelope as their answer (documentation only; mercurius serializes its own answers).
 */
export function documentGraphqlRoutes<
  T extends { schema?: Record<string, unknown>; url: string; route?: { method?: string | string[] } },
>(route: T) {
  if (!GRAPHQL_PATHS.includes(route.url)) return { schema: route.schema, url: route.url }
  const base = route.url === '/graphql' ? 'queryGraphql' : 'queryCatalogGraphql'
  const get = [route.route?.method].flat().includes('GET')
  return {
    url: route.url,
    schema: {
      ...route.schema,
      operationId: get ? `${base}WithGet` : base,
      tags: ['graphql'],
      summary:
        'GraphQL catalog API: products, categories, modifier groups; createProduct, updateProduct, deleteProduct',
      response: { 200: GraphqlResponse, 400: GraphqlResponse, 429: GraphqlResponse },
    },
  }
}
