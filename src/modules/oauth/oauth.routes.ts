import formbody from '@fastify/formbody'
import type { FastifyError, FastifyInstance, FastifyPluginAsync } from 'fastify'
import type { Config } from '../../config.ts'
import type { Database } from '../../platform/db/database.ts'
import { AppError } from '../../platform/errors/app-error.ts'
import { fieldErrors } from '../../platform/errors/validation.ts'
import { OAuthError } from './errors.ts'
import { introspectEndpoint } from './introspect.ts'
import { jwksEndpoint } from './jwks.ts'
import { metadataEndpoint } from './metadata.ts'
import { revokeEndpoint } from './revoke.ts'
import { type OAuthDeps, tokenEndpoint } from './token.ts'

/**
 * The protocol endpoints answer RFC 6749 §5.2 JSON rather than problem details (docs/decisions.md "Errors"),
 * with `Cache-Control: no-store` on every answer (§5.1) and form-encoded bodies besides JSON.
 */
function installOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | OAuthError, request, reply) => {
    let status = 400
    let body: { error: string; error_description: string }
    if (error instanceof OAuthError) {
      status = error.status
      reply.headers(error.headers)
      body = { error: error.code, error_description: error.message }
    } else if (error instanceof AppError && error.kind === 'rate-limited') {
      status = 429
      if (error.headers) reply.headers(error.headers)
      body = { error: 'temporarily_unavailable', error_description: error.message }
    } else if (error instanceof AppError && error.status < 500) {
      // The platform's refusals of a request before it reaches the endpoint (a body nested too deep).
      body = { error: 'invalid_request', error_description: error.message }
    } else if ((error as FastifyError).validation) {
      const fields = fieldErrors((error as FastifyError).validation!)
      body = { error: 'invalid_request', error_description: fields.map((f) => `${f.field} ${f.message}`).join('; ') }
    } else if (((error as FastifyError).statusCode ?? 500) < 500) {
      body = { error: 'invalid_request', error_description: 'the request body is malformed or of an unsupported type' }
    } else {
      request.log.error({ err: error }, 'unhandled error at an OAuth endpoint')
      status = 500
      body = { error: 'server_error', error_description: `an unexpected error occurred (request id ${request.id})` }
    }
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .type('application/json')
      .send(body)
  })
}

/** Token, revocation and introspection endpoints under `/api/v1/oauth`. */
export const oauthRoutes: FastifyPluginAsync<OAuthDeps> = async (app, deps) => {
  await app.register(formbody)
  installOAuthErrors(app)
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache')
    return payload
  })
  await app.register(tokenEndpoint, deps)
  await app.register(revokeEndpoint, deps)
  await app.register(introspectEndpoint, deps)
}

/** RFC 8414 metadata and the JWKS, at the root of BASE_URL. */
export const oauthWellKnownRoutes: FastifyPluginAsync<{ config: Config; database: Database }> = async (
  app,
  options,
) => {
  await app.register(metadataEndpoint, { config: options.config })
  await app.register(jwksEndpoint, { database: options.database })
}
