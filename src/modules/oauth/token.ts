import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Runtime } from '../../platform/runtime.ts'
import type { AppsService } from './apps.service.ts'
import { authenticateClient } from './client-auth.ts'
import { OAuthError } from './errors.ts'
import { exchangeAuthorizationCode } from './grants/authorization-code.ts'
import { exchangeClientCredentials } from './grants/client-credentials.ts'
import { exchangeRefreshToken } from './grants/refresh-token.ts'
import type { GrantsService } from './grants.service.ts'
import { oauthErrors, TokenBody, TokenResponseSchema, withoutEmpty } from './oauth.schemas.ts'

export interface OAuthDeps {
  runtime: Runtime
  apps: AppsService
  grants: GrantsService
}

/** `POST /oauth/token` (RFC 6749 §3.2): authenticates the client, then hands over to its grant. */
export const tokenEndpoint: FastifyPluginAsyncTypebox<OAuthDeps> = async (app, { runtime, apps, grants }) => {
  app.post(
    '/oauth/token',
    {
      config: { scope: false },
      schema: {
        operationId: 'requestToken',
        tags: ['oauth'],
        summary: 'OAuth 2.0 token endpoint: authorization_code (with PKCE), refresh_token, client_credentials',
        security: [],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: TokenBody,
        response: { 200: TokenResponseSchema, ...oauthErrors(400, 401, 429) },
      },
    },
    async (request) => {
      const body = withoutEmpty(request.body)
      const client = await authenticateClient(request, body, apps)
      switch (body.grant_type) {
        case 'authorization_code':
          return exchangeAuthorizationCode(runtime, grants, client, {
            code: body.code,
            redirect_uri: body.redirect_uri,
            code_verifier: body.code_verifier,
          })
        case 'refresh_token':
          return exchangeRefreshToken(runtime, grants, client, { refresh_token: body.refresh_token, scope: body.scope })
        case 'client_credentials':
          return exchangeClientCredentials(runtime, client, { scope: body.scope, org_id: body.org_id })
        default:
          throw new OAuthError(
            'unsupported_grant_type',
            `grant_type ${JSON.stringify(body.grant_type)} is not supported`,
          )
      }
    },
  )
}
