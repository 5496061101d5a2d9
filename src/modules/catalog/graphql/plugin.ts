import type { FastifyPluginAsync } from 'fastify'
import mercurius from 'mercurius'
import type { Runtime } from '../../../platform/runtime.ts'
import type { OrgsService } from '../../orgs/index.ts'
import type { CatalogService } from '../catalog.service.ts'
import { authenticateGraphql } from './context.ts'
import { formatErrors } from './format-errors.ts'
import { graphiqlRoutes } from './graphiql.ts'
import { queryLimits } from './limits.ts'
import { createGraphqlReads } from './reads.service.ts'
import { createLoaders, createResolvers, scalarFieldResolvers } from './resolvers.ts'
import { typeDefs } from './schema.ts'

export interface CatalogGraphqlOptions {
  catalog: CatalogService
  orgs: OrgsService
  runtime: Runtime
}

/** SPEC's endpoint, and the conventional one that also answers GET. */
const PATHS = ['/catalog/graphql', '/graphql']

/**
 * The GraphQL catalog API. Each path gets its own mercurius instance (mercurius serves one path) over the same
 * resolvers and loaders. Routes are public at the HTTP level (`scope: false`): the credential is checked per
 * operation, so errors answer in the GraphQL envelope and introspection needs no token.
 */
export const catalogGraphql: FastifyPluginAsync<CatalogGraphqlOptions> = async (app, { catalog, orgs, runtime }) => {
  const reads = createGraphqlReads(orgs)
  const resolvers = { ...createResolvers(catalog, reads), ...scalarFieldResolvers }
  const loaders = createLoaders(reads)
  const deps = { database: runtime.database, accessTokens: runtime.accessTokens, revocations: runtime.revocations }

  for (const path of PATHS) {
    await app.register(async (scope) => {
      await scope.register(mercurius, {
        schema: typeDefs,
        resolvers,
        loaders,
        path,
        graphiql: false,
        context: async (request) => ({ auth: await authenticateGraphql(request, deps) }),
        validationRules: [queryLimits],
        errorFormatter: formatErrors as never,
        // Compiled execution (graphql-jit) for queries seen more than once: the catalog's hot path.
        jit: 1,
        additionalRouteOptions: { config: { scope: false } },
      } as mercurius.MercuriusOptions)
    })
  }

  if (runtime.config.env !== 'production') await app.register(graphiqlRoutes, { endpoint: '/graphql' })
}
