import type { FastifyRequest } from 'fastify'
import { type DocumentNode, Kind, parse } from 'graphql'

interface GraphqlOperation {
  query: string
  variables: unknown
  operationName: string | undefined
}

/** The single operation of a GET or POST request; null for a batch or anything malformed (mercurius answers it). */
export function operationOf(request: FastifyRequest): GraphqlOperation | null {
  const source = (request.method === 'GET' ? request.query : request.body) as Record<string, unknown> | undefined
  if (!source || typeof source !== 'object' || Array.isArray(source) || typeof source.query !== 'string') return null
  let variables = source.variables
  if (typeof variables === 'string') {
    try {
      variables = JSON.parse(variables)
    } catch {
      return null
    }
  }
  const operationName =
    typeof source.operationName === 'string' && source.operationName ? source.operationName : undefined
  return { query: source.query, variables: variables ?? null, operationName }
}

const MAX_REMEMBERED = 1000
const kinds = new Map<string, 'query' | 'mutation' | 'subscription' | null>()

/**
 * Whether the operation that runs is a query (cacheable) or something that may write. Parsed once per distinct
 * text: a client sends the same few queries over and over. Null when the text does not parse or names no
 * single operation.
 */
export function operationKind(
  query: string,
  operationName: string | undefined,
): 'query' | 'mutation' | 'subscription' | null {
  const remembered = `${operationName ?? ''}\n${query}`
  const known = kinds.get(remembered)
  if (known !== undefined) return known
  let kind: 'query' | 'mutation' | 'subscription' | null = null
  try {
    kind = kindIn(parse(query), operationName)
  } catch {
    kind = null
  }
  if (kinds.size >= MAX_REMEMBERED) kinds.clear()
  kinds.set(remembered, kind)
  return kind
}

function kindIn(document: DocumentNode, operationName: string | undefined) {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
  const chosen = operationName ? operations.filter((o) => o.name?.value === operationName) : operations
  return chosen.length === 1 ? chosen[0].operation : null
}
