import type { FastifyPluginAsync } from 'fastify'
import type { Config } from '../../config.ts'
import { MERCHANT_SCOPES } from '../auth/index.ts'
import { PARTNER_SCOPE } from './scope.ts'

/** RFC 8414 authorization server metadata; the issuer is BASE_URL and consent lives on APP_URL. */
function serverMetadata(config: Config) {
  const api = `${config.baseUrl}/api/v1`
  const clientAuth = ['client_secret_basic', 'client_secret_post', 'none']
  return {
    issuer: config.baseUrl,
    authorization_endpoint: `${config.appUrl}/oauth/authorize`,
    token_endpoint: `${api}/oauth/token`,
    revocation_endpoint: `${api}/oauth/revoke`,
    introspection_endpoint: `${api}/oauth/introspect`,
    jwks_uri: `${config.baseUrl}/.well-known/jwks.json`,
    scopes_supported: [...MERCHANT_SCOPES, PARTNER_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: clientAuth,
    revocation_endpoint_auth_methods_supported: clientAuth,
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${config.baseUrl}/docs`,
  }
}

export const metadataEndpoint: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const body = serverMetadata(config)
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      config: { scope: false },
      schema: {
        operationId: 'getAuthorizationServerMetadata',
        tags: ['oauth'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        security: [],
        response: { 200: { type: 'object', additionalProperties: true } },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(body),
  )
}
