/** The GraphQL catalog API: POST /catalog/graphql, GET and POST /graphql, GraphiQL at /graphiql outside production. */

export { documentGraphqlRoutes } from './openapi.ts'
export { catalogGraphql } from './plugin.ts'
