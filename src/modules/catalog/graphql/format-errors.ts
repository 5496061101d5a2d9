import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import { type ExecutionResult, GraphQLError } from 'graphql'

interface FormatterContext {
  reply?: FastifyReply
  app: { log: FastifyBaseLogger }
}

function asGraphqlError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error
  const e = error as Error
  return new GraphQLError(e.message, { originalError: e })
}

/**
 * The GraphQL envelope `{ data, errors }` with what a client may see: our own errors keep their message and
 * extensions (code, status, field); a client's request errors keep theirs; anything unexpected (a database
 * failure, a bug) becomes "Internal server error" with the request id, logged, never with its text or stack.
 */
export function formatErrors(
  execution: ExecutionResult & { errors: readonly GraphQLError[]; statusCode?: number },
  context: FormatterContext,
) {
  const log = context.reply?.log ?? context.app.log
  const requestId = context.reply ? String(context.reply.request.id) : undefined
  const flat: GraphQLError[] = []
  for (const error of execution.errors) {
    // Mercurius wraps the specified validation rules' errors (and ours: depth, cost) into one error.
    const inner = (error.originalError as { errors?: unknown[] } | undefined)?.errors
    if (Array.isArray(inner)) flat.push(...inner.map(asGraphqlError))
    else flat.push(error)
  }
  const errors = flat.map((error) => safe(error, log, requestId).toJSON())

  let statusCode = execution.data ? 200 : (execution.statusCode ?? 200)
  if (!execution.data && execution.statusCode === undefined && execution.errors.length === 1) {
    const status = (execution.errors[0].originalError as { statusCode?: unknown } | undefined)?.statusCode
    statusCode = typeof status === 'number' ? status : 200
  }
  return { statusCode, response: { data: execution.data ?? null, errors } }
}

function safe(error: GraphQLError, log: FastifyBaseLogger, requestId: string | undefined): GraphQLError {
  const original = error.originalError as (Error & { statusCode?: number }) | undefined
  if (!original || original instanceof GraphQLError) return error
  if (typeof original.statusCode === 'number' && original.statusCode < 500) {
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      source: error.source,
      positions: error.positions,
      path: error.path,
      extensions: { code: 'BAD_REQUEST', ...error.extensions },
    })
  }
  log.error({ err: original, requestId }, 'unexpected error in a GraphQL resolver')
  return new GraphQLError('Internal server error', {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', requestId },
  })
}
