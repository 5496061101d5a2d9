import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, type ErrorKind } from '../errors/app-error.ts'
import { problem } from '../errors/problem.ts'
import { unavailableError } from '../errors/unavailable.ts'
import { fieldErrors } from '../errors/validation.ts'

const PROBLEM_JSON = 'application/problem+json; charset=utf-8'

/** Every error leaves as RFC 9457 problem+json with a stable kind; a 500 names the request id, never a stack. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const instance = request.url.split('?')[0]
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers)
      return sendProblem(
        reply,
        problem(error.kind, error.message, instance, {
          code: error.code,
          ...(error.errors ? { errors: error.errors } : {}),
          ...(error.orgs ? { orgs: error.orgs } : {}),
        }),
      )
    }
    if (error.validation) {
      const errors = fieldErrors(error.validation)
      // A body that parses but breaks the schema is unprocessable; malformed query or path parameters are a bad request.
      const kind: ErrorKind = error.validationContext === 'body' ? 'validation' : 'bad-request'
      const where =
        error.validationContext === 'body' ? 'the request body' : `the ${error.validationContext ?? 'request'}`
      const detail = `${where} is invalid: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
      return sendProblem(reply, problem(kind, detail, instance, { errors }))
    }
    const status = error.statusCode ?? 500
    if (status === 413)
      return sendProblem(reply, problem('payload-too-large', 'the request body is too large', instance))
    if (status === 415) return sendProblem(reply, problem('unsupported-media-type', error.message, instance))
    if (status === 405) return sendProblem(reply, problem('method-not-allowed', error.message, instance))
    if (status === 429) return sendProblem(reply, problem('rate-limited', error.message, instance))
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (malformed JSON, empty body with a JSON content type, bad headers).
      return sendProblem(reply, problem('bad-request', safeClientMessage(error), instance))
    }
    const unavailable = unavailableError(error)
    if (unavailable) {
      request.log.warn({ err: error }, unavailable.message)
      reply.headers(unavailable.headers ?? {})
      return sendProblem(reply, problem('unavailable', unavailable.message, instance, { code: unavailable.code }))
    }
    request.log.error({ err: error }, 'unhandled error')
    return sendProblem(
      reply,
      problem('internal', 'an unexpected error occurred; quote the request id to support', instance, {
        requestId: String(request.id),
      }),
    )
  })

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(
      reply,
      problem('not-found', `no route ${request.method} ${request.url.split('?')[0]}`, request.url.split('?')[0]),
    ),
  )
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (an over-long path parameter, a path
 * that is not valid URL encoding), which it would otherwise answer with its own plain JSON.
 */
export function frameworkErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const instance = request.url.split('?')[0]
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendProblem(reply, problem('uri-too-long', 'a path parameter is longer than any identifier', instance))
  }
  return sendProblem(reply, problem('bad-request', 'the path is not a valid URL', instance))
}

function safeClientMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return 'the request body is not valid JSON'
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'the request body is empty but its content type is JSON'
  return error.message
}

function sendProblem(reply: FastifyReply, body: ReturnType<typeof problem>) {
  return reply.status(body.status).type(PROBLEM_JSON).send(body)
}
