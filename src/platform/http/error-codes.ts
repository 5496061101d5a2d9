import type { FastifyInstance, RouteOptions } from 'fastify'
import { type ErrorKind, kindCode } from '../errors/app-error.ts'
import { BODY_TOO_DEEP } from './json-depth.ts'
import { problemRef } from './schemas.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The codes each error status of the route may carry (what its OpenAPI entry lists), filled in on registration. */
    errorCodes?: Record<number, readonly string[]>
  }
}

const codeOf = (kind: ErrorKind) => kindCode(kind)

/** A response schema as routes declare it: a problem reference (errorResponses) or a format of its own. */
interface ErrorResponse {
  $ref?: string
  'x-error-codes'?: string[]
}

/**
 * What a route may answer besides the codes it declares, from what the route is: its guard, its inputs, its
 * method (docs/api-conventions.md "Error codes").
 */
function platformCodes(route: RouteOptions): Record<number, string[]> {
  const codes: Record<number, string[]> = {}
  const add = (status: number, ...more: string[]) => {
    codes[status] = [...(codes[status] ?? []), ...more]
  }
  const schema = route.schema ?? {}
  const methods = [route.method].flat()
  if (route.config?.scope) {
    // Any API route may fail unexpectedly; the problem says no more than that (its detail goes to the log).
    add(500, codeOf('internal'))
    add(401, codeOf('unauthorized'))
    add(403, codeOf('forbidden'))
    add(429, codeOf('rate-limited'))
  }
  if (schema.params) add(414, codeOf('uri-too-long'))
  if (schema.params || schema.querystring) add(400, codeOf('bad-request'))
  if (schema.body) {
    add(400, codeOf('bad-request'), BODY_TOO_DEEP.code)
    add(413, codeOf('payload-too-large'))
    add(415, codeOf('unsupported-media-type'))
    add(422, codeOf('validation'))
  }
  if (methods.includes('POST') && route.config?.scope) {
    add(409, 'IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_INTERRUPTED')
    add(422, 'IDEMPOTENCY_KEY_REUSED')
  }
  // A route with a pressure handler of its own (liveness) answers under load shedding too.
  if (!route.config?.pressureHandler) add(503, codeOf('unavailable'), 'DATABASE_UNAVAILABLE', 'REDIS_UNAVAILABLE')
  return codes
}

const isProblem = (schema: ErrorResponse | undefined) => schema?.$ref === 'Problem'

/**
 * Whether a route answers its errors as problems: every route that declares its answers, unless it says
 * otherwise (GraphQL, `config.problems: false`) or an error status has a format of its own (OAuth's token
 * endpoints, RFC 6749 errors).
 */
function answersProblems(route: RouteOptions, responses: Record<string, ErrorResponse>): boolean {
  if (route.config?.problems === false) return false
  return !Object.entries(responses).some(([status, schema]) => Number(status) >= 400 && !isProblem(schema))
}

/**
 * Works out every route's error codes on registration: the codes the route declared (errorResponses) and the
 * platform's, kept in `config.errorCodes`. The route's own problem statuses get the full list in their
 * description; the platform's other statuses reach only the OpenAPI (documentErrorCodesInOpenApi), so the app
 * does not compile a serializer per route for each of them.
 */
export function documentErrorCodes(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const responses = route.schema?.response as Record<string, ErrorResponse> | undefined
    if (!responses || route.schema?.hide || !answersProblems(route, responses)) return
    const codes: Record<number, string[]> = {}
    for (const [status, schema] of Object.entries(responses)) {
      if (Number(status) >= 400 && isProblem(schema)) codes[Number(status)] = [...(schema['x-error-codes'] ?? [])]
    }
    for (const [status, more] of Object.entries(platformCodes(route))) {
      if (responses[status] && !isProblem(responses[status])) continue
      codes[Number(status)] = [...(codes[Number(status)] ?? []), ...more]
    }
    const errorCodes: Record<number, readonly string[]> = {}
    for (const [status, list] of Object.entries(codes)) {
      const unique = [...new Set(list)]
      errorCodes[Number(status)] = unique
      if (responses[status]) responses[status] = problemRef(unique) as ErrorResponse
    }
    route.config = { ...route.config, errorCodes }
  })
}

/** @fastify/swagger's transform: a route's OpenAPI entry lists every status its codes can come with. */
export function documentErrorCodesInOpenApi<T extends { schema?: Record<string, unknown> }>(
  doc: T,
  route: { config?: { errorCodes?: Record<number, readonly string[]> } },
): T {
  const errorCodes = route.config?.errorCodes
  if (!errorCodes || !doc.schema) return doc
  const response = { ...(doc.schema.response as Record<string, unknown>) }
  for (const [status, codes] of Object.entries(errorCodes)) response[status] ??= problemRef(codes)
  return { ...doc, schema: { ...doc.schema, response } }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Test runs only: `METHOD url status CODE` of each problem answered with a code its route does not list. */
    undeclaredErrorCodes?: Set<string>
  }
}

/**
 * Test runs only: collects every problem a route answered with a code its OpenAPI entry does not list, so the
 * suite keeps the documented codes true (the test harness fails a file that answered one).
 */
export function collectUndeclaredErrorCodes(app: FastifyInstance): void {
  const undeclared = new Set<string>()
  app.decorate('undeclaredErrorCodes', undeclared)
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.config?.errorCodes
    const status = reply.statusCode
    if (!declared || status < 400 || status >= 500 || typeof payload !== 'string') return payload
    if (!String(reply.getHeader('content-type')).startsWith('application/problem+json')) return payload
    const { code } = JSON.parse(payload) as { code?: string }
    if (!code || !declared[status]?.includes(code))
      undeclared.add(`${request.method} ${request.routeOptions.url} ${status} ${code}`)
    return payload
  })
}
