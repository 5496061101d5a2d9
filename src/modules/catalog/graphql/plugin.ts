import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { GraphQLError } from 'graphql'
import mercurius from 'mercurius'
import { graphqlKey, serveCached } from '../../../platform/cache/index.ts'
import { AppError } from '../../../platform/errors/app-error.ts'
import { CREDENTIAL_LIMITS, take } from '../../../platform/rate-limit/index.ts'
import type { Runtime } from '../../../platform/runtime.ts'
import type { OrgsService } from '../../orgs/index.ts'
import type { CatalogService } from '../catalog.service.ts'
import { admitGraphql, type GraphqlAuth } from './context.ts'
import { toGraphqlError } from './errors.ts'
import { formatErrors } from './format-errors.ts'
import { graphiqlRoutes } from './graphiql.ts'
import { queryLimits } from './limits.ts'
import { operationKind, operationOf } from './operation.ts'
import { createGraphqlReads } from './reads.service.ts'
import { createLoaders, createResolvers, scalarFieldResolvers } from './resolvers.ts'
import { typeDefs } from './schema.ts'

interface CatalogGraphqlOptions {
  catalog: CatalogService
  orgs: OrgsService
  runtime: Runtime
}

/** SPEC's endpoint, and the conventional one that also answers GET. */
export const GRAPHQL_PATHS = ['/catalog/graphql', '/graphql']
const PATHS = GRAPHQL_PATHS

declare module 'fastify' {
  interface FastifyRequest {
    graphqlAuth: GraphqlAuth | null
    /** Where a query's answer is stored once it is known to be a 200 without errors. */
    graphqlCacheKey: string | null
    /** The operation may have written to the catalog (anything but a single query). */
    graphqlMayWrite: boolean
  }
}

/** An operation that reads the schema (`__typename` alone is not introspection). */
const INTROSPECTION = /\b__(schema|type)\b/

/**
 * The GraphQL catalog API. Each path gets its own mercurius instance (mercurius serves one path) over the same
 * resolvers and loaders. Routes are public at the HTTP level (`scope: false`): the credential is checked per
 * operation, so errors answer in the GraphQL envelope. Requests without a valid token are rate limited by
 * address and may not introspect.
 */
export const catalogGraphql: FastifyPluginAsync<CatalogGraphqlOptions> = async (app, { catalog, orgs, runtime }) => {
  const reads = createGraphqlReads(orgs)
  const resolvers = { ...createResolvers(catalog, reads), ...scalarFieldResolvers }
  const loaders = createLoaders(reads, catalog)
  app.decorateRequest('graphqlAuth', null)
  app.decorateRequest('graphqlCacheKey', null)
  app.decorateRequest('graphqlMayWrite', false)

  // Before mercurius parses anything: the credential and rate limit once per request, then a cached answer for
  // a query of the token's org at the org's current catalog version (SPEC's hot read), if there is one.
  const isEndpoint = (request: FastifyRequest) => PATHS.includes(request.routeOptions.url ?? '')
  app.addHook('preHandler', async (request, reply) => {
    if (!isEndpoint(request)) return
    // The request's one operation, read once for every decision below.
    const operation = operationOf(request)
    const kind = operation && operationKind(operation.query, operation.operationName)
    // GraphQL over HTTP: a GET must not change anything, so a mutation sent with GET is a 405 in the GraphQL
    // envelope (mercurius's own refusal became a 500 with a stack in the log).
    if (request.method === 'GET' && kind === 'mutation') {
      const refusal = toGraphqlError(
        new AppError('method-not-allowed', 'a mutation must be sent with POST'),
      ) as GraphQLError
      return reply
        .code(405)
        .header('allow', 'POST')
        .send({ data: null, errors: [refusal.toJSON()] })
    }
    let admitted: Awaited<ReturnType<typeof admitGraphql>>
    try {
      admitted = await admitGraphql(runtime, orgs.rateLimitOf, request, reply)
      // Without a valid token nothing but refusals can be read: a bucket per address keeps that cheap.
      if (admitted.auth.error)
        await take(
          runtime.rateLimitStore,
          reply,
          `graphql:ip:${request.ip}`,
          CREDENTIAL_LIMITS.anonymousGraphqlPerAddress,
          'without a valid token from this address',
        )
    } catch (error) {
      // A rate limit: HTTP 429 with Retry-After, in the GraphQL envelope, before any operation runs.
      if (!(error instanceof AppError)) throw error
      const refusal = toGraphqlError(error) as GraphQLError
      return reply
        .code(error.status)
        .headers(error.headers ?? {})
        .send({ data: null, errors: [refusal.toJSON()] })
    }
    request.graphqlAuth = admitted.auth
    const { ctx } = admitted.auth
    if (!ctx) {
      // SPEC: every request carries a Bearer token; the schema is no exception (GraphiQL sends the one pasted in
      // its Headers tab).
      if (INTROSPECTION.test(operation?.query ?? ''))
        return reply.send({ data: null, errors: [admitted.auth.error.toJSON()] })
      return
    }
    if (kind !== 'query' || !operation) {
      request.graphqlMayWrite = true
      return
    }
    const cache = request.server.catalogCache
    if (!cache || admitted.catalogVersion === null) return
    const key = graphqlKey(
      ctx.orgId,
      admitted.catalogVersion,
      ctx.scopes,
      operation.query,
      operation.variables,
      operation.operationName,
    )
    if (serveCached(cache, reply, key)) return reply
    request.graphqlCacheKey = key
  })

  // After the resolvers' transactions have committed and before the client has the answer (see
  // bumpCatalogAfterWrite): answers with errors are never kept, since an error may be about this one request.
  app.addHook('onSend', async (request, reply, payload) => {
    const cache = request.server.catalogCache
    if (!cache || !request.graphqlAuth?.ctx) return payload
    if (request.graphqlMayWrite) await cache.versions.bump(request.graphqlAuth.ctx.orgId)
    const key = request.graphqlCacheKey
    if (
      typeof key === 'string' &&
      reply.statusCode === 200 &&
      typeof payload === 'string' &&
      !payload.includes('"errors"')
    ) {
      cache.responses.set(key, Buffer.from(payload))
    }
    return payload
  })

  for (const path of PATHS) {
    await app.register(async (scope) => {
      await scope.register(mercurius, {
        schema: typeDefs,
        resolvers,
        loaders,
        path,
        graphiql: false,
        context: (request: { graphqlAuth: GraphqlAuth | null }) => ({ auth: request.graphqlAuth }),
        validationRules: [queryLimits],
        errorFormatter: formatErrors as never,
        // Compiled execution (graphql-jit) for queries seen more than once: the catalog's hot path.
        jit: 1,
        // The credential is checked per operation; errors are GraphQL's own (`errors`), not problems.
        additionalRouteOptions: { config: { scope: false, problems: false } },
      } as mercurius.MercuriusOptions)
    })
  }

  if (runtime.config.env !== 'production') await app.register(graphiqlRoutes, { endpoint: '/graphql' })
}
