import type { AddressInfo } from 'node:net'
import { ClientError, GraphQLClient } from 'graphql-request'
import pg from 'pg'
import type { JsonBody, TestApp } from './harness.ts'

export interface GraphqlAnswer {
  status: number
  data: JsonBody
  errors?: { message: string; path?: (string | number)[]; locations?: unknown[]; extensions?: JsonBody }[]
}

/** Listens on a loopback port so that tests talk to the GraphQL API over real HTTP, as a client would. */
export async function listen(app: TestApp): Promise<string> {
  await app.api.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.api.server.address() as AddressInfo
  return `http://127.0.0.1:${port}`
}

/** A graphql-request client for one token that returns the whole envelope (data and errors) with the status. */
export function graphqlClient(url: string, token?: string) {
  const client = new GraphQLClient(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    errorPolicy: 'all',
  })
  return async (query: string, variables?: Record<string, unknown>): Promise<GraphqlAnswer> => {
    try {
      const result = await client.rawRequest<JsonBody>(query, variables)
      return { status: result.status, data: result.data, errors: result.errors as GraphqlAnswer['errors'] }
    } catch (error) {
      if (error instanceof ClientError) {
        const response = error.response as unknown as GraphqlAnswer
        return { status: response.status, data: response.data ?? null, errors: response.errors }
      }
      throw error
    }
  }
}

const CATALOG_TABLE =
  /\b(FROM|JOIN)\s+(products|categories|modifier_groups|modifier_options|product_modifier_groups)\b/i

/**
 * Counts the SQL statements that read catalog tables while `fn` runs, by wrapping node-postgres' Client#query
 * (the one way every pool connection talks to the database).
 */
export async function countCatalogQueries<T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const original = pg.Client.prototype.query
  let queries = 0
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string }
    const text = typeof first === 'string' ? first : first?.text
    if (text && CATALOG_TABLE.test(text)) queries++
    return (original as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof original
  try {
    const result = await fn()
    return { result, queries }
  } finally {
    pg.Client.prototype.query = original
  }
}
