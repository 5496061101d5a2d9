import { randomUUID } from 'node:crypto'
import cors from '@fastify/cors'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import { auditRoutes } from './modules/audit/index.ts'
import { APPS_SCOPE, authRoutes, deviceRoutes, TILL_SCOPE, userRoutes } from './modules/auth/index.ts'
import { automationRoutes } from './modules/automations/index.ts'
import { campaignRoutes } from './modules/campaigns/index.ts'
import { catalogGraphql, documentGraphqlRoutes } from './modules/catalog/graphql/index.ts'
import { catalogRoutes } from './modules/catalog/index.ts'
import { customerRoutes } from './modules/customers/index.ts'
import { eventRoutes } from './modules/events/index.ts'
import { giftCardRoutes } from './modules/gift-cards/index.ts'
import { integrationRoutes } from './modules/integrations/index.ts'
import { inventoryRoutes } from './modules/inventory/index.ts'
import { kdsRoutes } from './modules/kds/index.ts'
import { laybyRoutes } from './modules/laybys/index.ts'
import { locationRoutes } from './modules/locations/index.ts'
import { loyaltyRoutes } from './modules/loyalty/index.ts'
import {
  appRoutes,
  oauthRoutes,
  oauthWellKnownRoutes,
  PARTNER_SCOPE,
  scopeDescriptions,
} from './modules/oauth/index.ts'
import { orderRoutes } from './modules/orders/index.ts'
import { settingsRoutes } from './modules/orgs/index.ts'
import { partnerRoutes } from './modules/partners/index.ts'
import { paymentRoutes } from './modules/payments/index.ts'
import { receiptRoutes } from './modules/receipts/index.ts'
import { registerRoutes } from './modules/registers/index.ts'
import { reportRoutes } from './modules/reports/index.ts'
import { syncRoutes } from './modules/sync/index.ts'
import { taxRoutes } from './modules/tax/index.ts'
import { webhooksRoutes } from './modules/webhooks/index.ts'
import { responseCache } from './platform/cache/index.ts'
import { authenticate } from './platform/http/authenticate.ts'
import { readMissingBodyAsEmpty } from './platform/http/empty-body.ts'
import {
  collectUndeclaredErrorCodes,
  documentErrorCodes,
  documentErrorCodesInOpenApi,
} from './platform/http/error-codes.ts'
import { frameworkErrorReply, installErrorHandler } from './platform/http/error-handler.ts'
import { healthRoutes } from './platform/http/health.ts'
import { idempotency } from './platform/http/idempotency.ts'
import { refuseDeepJson } from './platform/http/json-depth.ts'
import { installLoadShedding } from './platform/http/load-shedding.ts'
import { completeDocument, describeRoute, gettingStarted, securitySchemes } from './platform/http/openapi-document.ts'
import { ProblemSchema } from './platform/http/schemas.ts'
import { buildSharedSerializer } from './platform/http/serializer.ts'
import { buildSharedValidator } from './platform/http/validator.ts'
import { installMetrics } from './platform/metrics/metrics.ts'
import { rateLimit } from './platform/rate-limit/index.ts'
import './platform/http/route-config.ts'
import type { Runtime } from './platform/runtime.ts'
import { createServices, type Services } from './services.ts'

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/

interface App {
  api: FastifyInstance
  services: Services
  /** From now on `/readyz` answers 503: the process is stopping (a graceful shutdown's first step). */
  drain(): void
}

/** The API: platform plugins first, then each domain under `/api/v1`. Tests build exactly this app. */
interface BuildOptions {
  /** What bench/server.ts leaves out to measure its cost on the same routes; never set in production. */
  measuredWithout?: ('metrics' | 'org-rate-limit')[]
}

export async function buildApp(
  runtime: Runtime,
  services: Services = createServices(runtime),
  options: BuildOptions = {},
): Promise<App> {
  const { config } = runtime
  const api = Fastify({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
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
    // Every context, including those that add shared schemas, builds its validators and serializers from ours.
    schemaController: {
      compilersFactory: {
        buildValidator: buildSharedValidator as never,
        buildSerializer: buildSharedSerializer as never,
      },
    },
    frameworkErrors: frameworkErrorReply,
  }).withTypeProvider<TypeBoxTypeProvider>()

  installErrorHandler(api)
  documentErrorCodes(api)
  if (config.env === 'test') collectUndeclaredErrorCodes(api)
  api.addSchema(ProblemSchema)
  api.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  readMissingBodyAsEmpty(api)
  refuseDeepJson(api)

  await api.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OpenTill API',
        version: '1.2.0',
        description: gettingStarted(config.appUrl),
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'OpenTill', url: 'https://github.com/opentill/opentill' },
      },
      // x-internal: this server is the public API (OWASP API9, an inventory of what is exposed).
      servers: [{ url: config.baseUrl, description: `this deployment (${config.env})`, 'x-internal': false } as never],
      components: {
        securitySchemes: securitySchemes(config.appUrl, config.baseUrl, {
          ...scopeDescriptions,
          [PARTNER_SCOPE]: 'Partner apps: provision and list tenant orgs',
          [TILL_SCOPE]: 'Paired tills, with their own token: carry the catalog and send sales made offline',
          [APPS_SCOPE]: 'Owners: register the store’s OAuth apps and disconnect the apps it let in (no app holds it)',
        }),
      },
      security: [{ bearer: [] }],
    },
    transform: ((input: Parameters<typeof documentGraphqlRoutes>[0] & { route: never }) =>
      describeRoute(documentErrorCodesInOpenApi(documentGraphqlRoutes(input), input.route), input.route)) as never,
    transformObject: ((input: { openapiObject: Record<string, unknown> }) =>
      completeDocument(input.openapiObject)) as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  })
  if (config.env !== 'production') {
    await api.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } })
  }

  // Shedding first: an overloaded process answers 503 before it spends anything on the request.
  await installLoadShedding(api, {
    database: runtime.database,
    eventLoopDelayMs: config.shedEventLoopDelayMs,
    eventLoopUtilization: config.shedEventLoopUtilization,
    poolWaiting: config.shedPoolWaiting,
  })
  if (!options.measuredWithout?.includes('metrics'))
    installMetrics(api, {
      database: runtime.database,
      redis: runtime.redis,
      token: config.metricsToken,
      snapshotMs: config.metricsSnapshotMs,
    })
  // The back office on APP_URL calls the API with a bearer token, never a cookie: CORS for that origin alone
  // (docs/decisions.md "The back office").
  await api.register(cors, {
    origin: [new URL(config.appUrl).origin],
    credentials: false,
    maxAge: 600,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['location', 'etag', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after'],
  })
  await api.register(authenticate, {
    runtime,
    orgLimitOf: options.measuredWithout?.includes('org-rate-limit') ? null : services.orgs.rateLimitOf,
  })
  // Revocation and introspection take client credentials too: the same buckets as the token endpoint.
  await api.register(rateLimit, {
    runtime,
    loginRoutes: ['/api/v1/auth/login'],
    tokenRoutes: ['/api/v1/oauth/token', '/api/v1/oauth/revoke', '/api/v1/oauth/introspect'],
  })
  await api.register(responseCache, runtime)
  await api.register(oauthWellKnownRoutes, { config: runtime.config, database: runtime.database })
  await api.register(idempotency, runtime)
  const state = { draining: false }
  await api.register(healthRoutes, { database: runtime.database, state })
  await api.register(catalogGraphql, { catalog: services.catalog, orgs: services.orgs, runtime })
  api.get('/openapi.json', { config: { scope: false }, schema: { hide: true } }, async () => api.swagger())
  // The API's front door: the docs where they are served, else where to find the document.
  api.get('/', { config: { scope: false }, schema: { hide: true } }, async (_request, reply) =>
    config.env === 'production'
      ? { name: 'OpenTill API', openapi: '/openapi.json', graphql: '/catalog/graphql', rest: '/api/v1' }
      : reply.code(302).header('location', '/docs').send(),
  )

  await api.register(
    async (v1) => {
      await v1.register(authRoutes, {
        auth: services.auth,
        invitations: services.invitations,
        passwords: services.passwords,
        store: runtime.rateLimitStore,
      })
      await v1.register(userRoutes, { users: services.users })
      await v1.register(deviceRoutes, { devices: services.devices, store: runtime.rateLimitStore })
      await v1.register(settingsRoutes, { settings: services.settings })
      await v1.register(auditRoutes, { audit: services.audit })
      await v1.register(catalogRoutes, { catalog: services.catalog })
      await v1.register(locationRoutes, { locations: services.locations })
      await v1.register(inventoryRoutes, { inventory: services.inventory })
      await v1.register(registerRoutes, { registers: services.registers })
      await v1.register(eventRoutes, { events: services.events })
      await v1.register(kdsRoutes, { kds: services.kds })
      await v1.register(partnerRoutes, { partners: services.partners })
      await v1.register(integrationRoutes, { integrations: services.integrations })
      await v1.register(webhooksRoutes, { webhooks: services.webhooks })
      await v1.register(oauthRoutes, { runtime, apps: services.oauth.apps, grants: services.oauth.grants })
      await v1.register(appRoutes, { apps: services.oauth.apps, grants: services.oauth.grants })
      await v1.register(taxRoutes, { tax: services.tax })
      await v1.register(customerRoutes, {
        customers: services.customers,
        rewards: services.loyalty,
        profile: services.flows.customerProfile,
        erase: services.flows.eraseCustomer,
      })
      await v1.register(orderRoutes, {
        orders: services.orders,
        sales: services.flows.sales,
        orderDetail: services.flows.orderDetail,
        changeOrderStatus: services.flows.changeOrderStatus,
        refunds: services.flows.refund,
      })
      await v1.register(paymentRoutes, { payments: services.payments })
      await v1.register(giftCardRoutes, { giftCards: services.giftCards })
      await v1.register(laybyRoutes, { laybys: services.laybys, flows: services.flows.laybys })
      await v1.register(automationRoutes, { automations: services.automations })
      await v1.register(campaignRoutes, { campaigns: services.campaigns })
      await v1.register(loyaltyRoutes, {
        loyalty: services.loyalty,
        redeemReward: services.flows.redeemReward,
        defineReward: services.flows.defineReward,
      })
      await v1.register(reportRoutes, { reports: services.reports })
      await v1.register(receiptRoutes, { receipts: services.receipts })
      await v1.register(syncRoutes, {
        sync: services.sync,
        sales: services.offlineSales,
        conflicts: services.syncConflicts,
      })
    },
    { prefix: '/api/v1' },
  )

  return {
    api,
    services,
    drain() {
      state.draining = true
    },
  }
}
