import type { FastifyPluginAsync } from 'fastify'
import { SigningKeys } from '../../platform/crypto/signing-keys.ts'
import type { Database } from '../../platform/db/database.ts'

/** The public keys that verify access tokens (RFC 7517), retired ones included until their tokens expire. */
export const jwksEndpoint: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  const publicJwks = await SigningKeys.readPublicJwks(database)
  const keys = publicJwks.keys.map(({ kty, crv, x, y, kid, alg, use }) => ({ kty, crv, x, y, kid, alg, use }))
  app.get(
    '/.well-known/jwks.json',
    {
      config: { scope: false },
      schema: {
        operationId: 'getJwks',
        tags: ['oauth'],
        summary: 'JSON Web Key Set of the access-token signing keys',
        security: [],
        response: {
          200: {
            type: 'object',
            properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
          },
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send({ keys }),
  )
}
