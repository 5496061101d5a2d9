import { readFileSync } from 'node:fs'
import { errorKinds } from '../errors/app-error.ts'
import { fromRoot } from '../paths.ts'
import { ANY_TOKEN } from './authenticate.ts'

/**
 * What a code generator needs beyond what the routes declare (docs/api-conventions.md "The OpenAPI document"):
 * applied by @fastify/swagger's `transform` to each route (`describeRoute`, which knows the route's scope and
 * method) and `transformObject` to the whole document (`completeDocument`).
 */

type Json = Record<string, unknown>

/** Vendor keys a route's entry carries from `describeRoute` to `completeDocument`. */
const IDEMPOTENT = 'x-idempotent'
/** Set by a route that also answers text/csv (the reports). */
export const ALSO_CSV = 'x-also-csv'
const VERSIONED = 'x-if-match'
const SCOPES = 'x-required-scopes'
/** The codes each error status of the route may carry, as error-codes.ts collected them on registration. */
const ERROR_CODES = 'x-error-codes-by-status'

/** The top of the document and of /docs: how to make a first call, in the order a developer needs it. */
export function gettingStarted(appUrl: string): string {
  return `Point-of-sale and commerce back end: REST under \`/api/v1\`, GraphQL at \`/catalog/graphql\`.

## Getting started

1. **A token.** A person: \`POST /api/v1/auth/login\` with \`{ "email", "password" }\` answers \`accessToken\` (15 minutes) and
   \`refreshToken\` (\`POST /api/v1/auth/refresh\`). An app: send the merchant to
   \`${appUrl}/oauth/authorize?response_type=code&client_id=…&redirect_uri=…&scope=…&state=…&code_challenge=…&code_challenge_method=S256\`
   and exchange the code at \`POST /api/v1/oauth/token\` (OAuth 2.0 with PKCE).
2. **Scopes.** Each operation names the scope it needs (its security requirement, and \`x-required-scopes\`); the
   \`oauth2\` scheme lists them all. A token without it gets \`403\` with \`WWW-Authenticate: … insufficient_scope\`.
3. **Writes once.** Send \`Idempotency-Key: <uuid>\` on every POST: a retry with the same key and body gets the first
   answer and the work is done once. PATCHes take \`If-Match\` (or \`version\`) against lost updates.
4. **Errors** are RFC 9457 problems (\`application/problem+json\`) with a stable \`code\`, one of those the operation lists,
   and \`errors: [{ field, message, code }]\` naming each bad field. \`429\` and \`503\` carry \`Retry-After\`.
5. **Lists** answer \`{ data, pagination: { nextCursor, hasMore } }\`: pass \`cursor\` for the next page, \`limit\` up to 200.
6. **Money** is a decimal in the org's currency (\`4.5\` is 4.50), exact to its minor unit.

The typed TypeScript client \`@opentill/client\` is generated from this document; GraphiQL is at \`/graphiql\`.`
}

/** The OAuth2 and login schemes, and the scope an operation needs on either. */
export function securitySchemes(appUrl: string, baseUrl: string, scopes: Readonly<Record<string, string>>) {
  return {
    bearer: {
      type: 'http' as const,
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'an access token, an ES256 JWT following RFC8725 (JWT best current practices: one algorithm, audience and issuer checked): from POST /api/v1/auth/login (a person) or the OAuth token endpoint (an app)',
    },
    oauth2: {
      type: 'oauth2' as const,
      description:
        'apps ask for scopes at consent; each operation names the scope it needs. Access tokens are ES256 JWTs following RFC8725',
      flows: {
        authorizationCode: {
          authorizationUrl: new URL('/oauth/authorize', appUrl).toString(),
          tokenUrl: new URL('/api/v1/oauth/token', baseUrl).toString(),
          refreshUrl: new URL('/api/v1/oauth/token', baseUrl).toString(),
          scopes: { ...scopes },
        },
      },
    },
  }
}

/**
 * A route's entry: the scope it needs (as a security requirement on both schemes and `x-required-scopes`), and
 * whether it honours an Idempotency-Key (POSTs that need a scope) or If-Match (PATCHes whose body has `version`).
 */
export function describeRoute<T extends { schema?: Json }>(
  doc: T,
  route: {
    method?: string | string[]
    config?: { scope?: string | false; errorCodes?: Record<number, readonly string[]> }
  },
): T {
  if (!doc.schema) return doc
  const schema: Json = { ...doc.schema }
  const methods = [route.method].flat()
  const scope = route.config?.scope
  if (scope === ANY_TOKEN) schema.security ??= [{ bearer: [] }, { oauth2: [] }]
  else if (typeof scope === 'string') {
    schema[SCOPES] = [scope]
    schema.security ??= [{ bearer: [scope] }, { oauth2: [scope] }]
    if (methods.includes('POST')) schema[IDEMPOTENT] = true
  }
  if (route.config?.errorCodes) schema[ERROR_CODES] = route.config.errorCodes
  const body = schema.body as { properties?: Json } | undefined
  if (methods.includes('PATCH') && body?.properties && 'version' in body.properties) schema[VERSIONED] = true
  return { ...doc, schema }
}

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '303': 'See Other',
}

const header = (description: string, type: 'string' | 'integer' = 'string') => ({
  description,
  schema: { type },
})

const HEADERS = {
  RequestId: header('the request id, also in the log and in a problem as requestId'),
  RateLimitLimit: header("the credential's requests per minute", 'integer'),
  RateLimitRemaining: header('requests left in the current window', 'integer'),
  RetryAfter: header('seconds to wait before trying again', 'integer'),
}

const PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'a unique key per intended write (a UUID): a retry with the same key and body gets the first answer, and the work is done once (docs/api-conventions.md "Idempotency")',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'the version last read (its ETag); a changed resource answers 409 STALE_VERSION',
    schema: { type: 'string' },
  },
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })

/** Each area of the API, as the docs group the operations. */
const TAGS: Record<string, string> = {
  auth: 'Sign-in for people: login, refresh, logout, who am I, passwords, invitations',
  oauth: 'OAuth 2.0 for apps: token, revocation, introspection, metadata',
  apps: 'The store’s own OAuth apps and the apps it let in (owners)',
  catalog: 'Products, variants, categories, modifiers, price lists, bundles, markdowns',
  locations: 'Shops and warehouses, each in its own time zone',
  inventory: 'Stock levels, adjustments, transfers, reorder points, alerts',
  orders: 'Orders, their calculation, status and refunds',
  payments: 'Payments, capture and void, payment methods',
  registers: 'Registers, shifts and the cash in the drawer',
  customers: 'Customer profiles and their orders',
  loyalty: 'Loyalty programs, members, points and rewards',
  campaigns: 'Discount campaigns and vouchers',
  'gift-cards': 'Gift cards: issue, load, look up, disable',
  laybys: 'Lay-bys: goods put aside and paid over time',
  reports: 'Reports, as JSON or CSV',
  sync: "A paired till's side: the catalog it carries offline",
  webhooks: 'Webhook endpoints, deliveries and replays',
  integrations: 'Integrations and their webhook endpoints',
  events: 'The events log: every change, for 30 days',
  kds: 'The live kitchen feed (server-sent events)',
  automations: 'Rules that act on events and schedules, and their runs',
  partners: 'Partner apps: tenant orgs',
  users: 'Staff accounts: invitations, roles, deactivation, PINs',
  devices: 'Tills paired with registers, and sign-in there with a PIN',
  settings: "The store's settings: name, address, time zone, receipts, tips",
  audit: 'The audit log: who did what, when, at which till',
  graphql: 'The GraphQL catalog API',
  shifts: 'Register shifts: cash counts and movements',
  tax: 'Tax rates',
  health: 'Liveness and readiness probes',
}

function titleOf(status: string): string {
  return Object.values(errorKinds).find((k) => String(k.status) === status)?.title ?? 'Error'
}

/** One answer: a meaningful description, its headers, and a problem typed by the codes it may carry. */
function completeResponse(status: string, response: Json, limited: boolean, codes: readonly string[]): Json {
  const headers: Json = { 'X-Request-Id': ref('headers', 'RequestId') }
  if (limited) {
    headers['X-RateLimit-Limit'] = ref('headers', 'RateLimitLimit')
    headers['X-RateLimit-Remaining'] = ref('headers', 'RateLimitRemaining')
  }
  if (status === '429' || status === '503') headers['Retry-After'] = ref('headers', 'RetryAfter')
  const next: Json = { ...response, headers: { ...(response.headers as Json), ...headers } }
  if (Number(status) < 400) {
    if (response.description === 'Default Response') next.description = SUCCESS_TEXT[status] ?? 'Success'
    // An empty answer has no body at all, rather than a JSON null.
    if (status === '204') delete next.content
    return next
  }
  const content = response.content as Record<string, { schema?: Json }> | undefined
  // The problem schema under whatever type the route produces (an event stream's errors are problems too).
  const problem = Object.values(content ?? {}).find((c) => c.schema?.$ref === '#/components/schemas/Problem')?.schema
  if (!problem) {
    // An error in a format of its own: OAuth's (RFC 6749 §5.2).
    if (response.description === 'Default Response') next.description = `${titleOf(status)} (RFC 6749 error)`
    return next
  }
  next.description = `${titleOf(status)}${codes.length > 0 ? `: ${codes.join(', ')}` : ''}`
  next.content = {
    'application/problem+json': {
      schema:
        codes.length === 0
          ? problem
          : { allOf: [problem, { type: 'object', properties: { code: { type: 'string', enum: codes } } }] },
    },
  }
  return next
}

/**
 * Real requests and answers of the main operations, by operationId, recorded by test/document/openapi-examples.test.ts
 * (which fails when an answer's shape leaves its example behind).
 */
export const EXAMPLES_FILE = fromRoot('src', 'platform', 'http', 'openapi-examples.json')

function examples(): Record<string, { request?: unknown; response: unknown }> {
  return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'))
}

/** An operation's examples: on its JSON request body and its first success answer. */
function addExamples(operation: Json, example: { request?: unknown; response: unknown } | undefined): void {
  if (!example) return
  const body = (operation.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['application/json']
  if (body && example.request !== undefined) body.example = example.request
  const responses = operation.responses as Record<string, { content?: Record<string, Json> }>
  const success = Object.keys(responses).find((status) => /^2\d\d$/.test(status))
  const content = success ? responses[success].content?.['application/json'] : undefined
  if (content) content.example = example.response
}

/** The whole document: shared headers and parameters, optional defaults, typed problems on every operation. */
export function completeDocument(openapi: Json): Json {
  const paths = openapi.paths as Record<string, Record<string, Json>>
  const recorded = examples()
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      const parameters = ((operation.parameters as Json[] | undefined) ?? []).map((p) =>
        // A parameter with a default (limit) need not be sent: the generated types must not demand it.
        (p.schema as Json | undefined)?.default !== undefined ? { ...p, required: false } : p,
      )
      if (operation[IDEMPOTENT]) parameters.push(ref('parameters', 'IdempotencyKey'))
      if (operation[VERSIONED]) parameters.push(ref('parameters', 'IfMatch'))
      if (parameters.length > 0) operation.parameters = parameters
      delete operation[IDEMPOTENT]
      delete operation[VERSIONED]
      addExamples(operation, recorded[String(operation.operationId)])
      const limited = operation[SCOPES] !== undefined
      const codes = (operation[ERROR_CODES] ?? {}) as Record<string, readonly string[]>
      delete operation[ERROR_CODES]
      const responses = operation.responses as Record<string, Json>
      for (const [status, response] of Object.entries(responses))
        responses[status] = completeResponse(status, response, limited, codes[status] ?? [])
      if (operation[ALSO_CSV] && responses['200']) {
        const ok = responses['200']
        ok.content = {
          ...(ok.content as Json),
          'text/csv': { schema: { type: 'string', description: 'the rows as CSV, one column per field' } },
        }
        delete operation[ALSO_CSV]
      }
    }
  }
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => (o.tags as string[] | undefined) ?? [])),
  )
  openapi.tags = [...used].sort().map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) }))
  const components = (openapi.components ?? {}) as Json
  openapi.components = {
    ...components,
    headers: { ...(components.headers as Json), ...HEADERS },
    parameters: { ...(components.parameters as Json), ...PARAMETERS },
  }
  return openapi
}
