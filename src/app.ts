import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import { catalogRoutes } from './modules/catalog/index.ts'
import { authRoutes } from './modules/auth/index.ts'
import { authenticate } from './platform/http/authenticate.ts'
import { installErrorHandler } from './platform/http/error-handler.ts'
import { healthRoutes } from './platform/http/health.ts'
import { idempotency } from './platform/http/idempotency.ts'
import { ProblemSchema } from './platform/http/schemas.ts'
import { buildValidator } from './platform/http/validator.ts'
import './platform/http/route-config.ts'
import type { Runtime } from './platform/runtime.ts'
import { createServices, type Services } from './services.ts'

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

export interface App {
  api: FastifyInstance
  services: Services
}

/** The API: platform plugins first, then each domain under `/api/v1`. Tests build exactly this app. */
export async function buildApp(runtime: Runtime, services: Services = createServices(runtime)): Promise<App> {
  const { config } = runtime
  const api = Fastify({
    bodyLimit: config.bodyLimitBytes,
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          '*.password',
          '*.refreshToken',
          '*.accessToken',
          '*.client_secret',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    // A caller's own request id is kept when it is sane, so logs on both sides correlate.
    genReqId: (request) => {
      const incoming = request.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    },
    // Every context, including those that add shared schemas, builds its validator from our factory.
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
  }).withTypeProvider<TypeBoxTypeProvider>()

  installErrorHandler(api)
  api.addSchema(ProblemSchema)
  api.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OpenTill API',
        version: '1.2.0',
        description: 'Point-of-sale and commerce back end. REST under /api/v1, GraphQL at /catalog/graphql.',
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  })
  if (config.env !== 'production') {
    await api.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } })
  }

  await api.register(authenticate, runtime)
  await api.register(idempotency, runtime)
  await api.register(healthRoutes, { database: runtime.database })
  api.get('/openapi.json', { config: { scope: false }, schema: { hide: true } }, async () => api.swagger())

  await api.register(
    async (v1) => {
      await v1.register(authRoutes, { auth: services.auth })
      await v1.register(catalogRoutes, { catalog: services.catalog })
    },
    { prefix: '/api/v1' },
  )

  return { api, services }
}
