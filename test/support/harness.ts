import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { loadConfig, withDefaultUser } from '../../src/config.ts'
import { openRuntime, type Runtime } from '../../src/platform/runtime.ts'
import { createServices, type ServiceOptions, type Services } from '../../src/services.ts'
import { createServerDatabase, type ServerDatabase } from './server-database.ts'

/** The SECRETS_KEY of test apps (32 bytes, base64). */
const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64')

export interface TestApp {
  api: FastifyInstance
  runtime: Runtime
  services: Services
  close(): Promise<void>
}

/**
 * A new database on the PostgreSQL server named by DATABASE_URL (undefined on the embedded database). `npm test`
 * migrates one template database for the run (OPENTILL_TEST_TEMPLATE, scripts/run-tests.ts), and a database
 * copied from it starts migrated in a fifth of a second instead of applying every migration again; `empty` asks
 * for a database nothing has touched (the migration tests).
 */
export async function scratchServerDatabase(options: { empty?: boolean } = {}): Promise<ServerDatabase | undefined> {
  const server = withDefaultUser(process.env.DATABASE_URL)
  if (!server || server.startsWith('memory://')) return undefined
  return createServerDatabase(server, 'opentill_t', options.empty ? undefined : process.env.OPENTILL_TEST_TEMPLATE)
}

/**
 * The real app on a fresh database: a new database on the PostgreSQL server named by DATABASE_URL (`npm test`
 * sets it to its embedded cluster; dropped afterwards), or a throw-away embedded cluster (memory://) when a file
 * runs on its own; with Redis when REDIS_URL is set.
 */
/**
 * The runtime a second process opens on a test app's database (its owner URL), for crash tests: the app sealed its
 * secrets with the test key, so this process opens them with it. No migrations: the app ran them.
 */
export function openTestRuntime(databaseUrl: string): Promise<Runtime> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    REDIS_URL: '',
    SECRETS_KEY: TEST_SECRETS_KEY,
  })
  return openRuntime(config, { migrate: false })
}

export async function startTestApp(env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestApp> {
  const scratch = await scratchServerDatabase()
  const databaseUrl = scratch?.url ?? 'memory://'
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? '',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // Secrets are sealed at rest in every test, as production requires.
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...env,
  })
  const runtime = await openRuntime(config, { migrate: true })
  const { api, services } = await buildApp(runtime, createServices(runtime, options))
  await api.ready()
  return {
    api,
    runtime,
    services,
    async close() {
      await api.close()
      await runtime.close()
      await scratch?.drop()
      // The OpenAPI lists each route's error codes; an answer with another code is a gap in it (or a bug).
      const undeclared = [...(api.undeclaredErrorCodes ?? [])]
      if (undeclared.length > 0)
        throw new Error(`answered error codes the route's OpenAPI entry does not list:\n${undeclared.join('\n')}`)
    },
  }
}

export interface Merchant {
  orgId: string
  userId: string
  email: string
  password: string
  token: string
  refreshToken: string
}

/**
 * Creates an org with an owner through the service and logs in through the API. Orgs are on the Pro plan unless
 * told otherwise, so suites that send bursts are not cut short by the Starter plan's rate limit.
 */
export async function createMerchant(
  app: TestApp,
  options: { currency?: string; name?: string; plan?: 'starter' | 'growth' | 'pro' | 'enterprise' } = {},
): Promise<Merchant> {
  const email = `owner-${randomBytes(5).toString('hex')}@example.test`
  const password = `pw-${randomBytes(8).toString('hex')}`
  const { org, owner } = await app.services.orgs.createOrg({
    name: options.name ?? 'Test Shop',
    email,
    password,
    currency: options.currency ?? 'USD',
    plan: options.plan ?? 'pro',
  })
  const login = await app.api.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } })
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`)
  const data = login.json().data
  return { orgId: org.id, userId: owner.id, email, password, token: data.accessToken, refreshToken: data.refreshToken }
}

/** A user of `role` in an org, made through the service, and signed in through the API. */
export async function loginAs(app: TestApp, orgId: string, role: 'owner' | 'manager' | 'staff') {
  const email = `${role}-${randomBytes(5).toString('hex')}@example.test`
  const password = `pw-${randomBytes(8).toString('hex')}`
  const user = await app.runtime.database.transaction(orgId, (q) =>
    app.services.auth.createUser(q, { orgId, email, role, password }),
  )
  const login = await app.api.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } })
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`)
  const { accessToken, refreshToken } = login.json().data
  return {
    id: user.id as string,
    email,
    password,
    refreshToken: refreshToken as string,
    api: clientFor(app.api, accessToken),
  }
}

/**
 * An answer's JSON as a test reads it: the test reaches into it by path and asserts what it finds. The answers'
 * shapes are typed once, by the OpenAPI document and the client generated from it (test/document checks both);
 * restating them here would be a second definition to keep in step. The one `any` the tests keep.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type JsonBody = any

export interface Call {
  status: number
  body: JsonBody
  headers: LightMyRequestResponse['headers']
  raw: LightMyRequestResponse
}

/** A JSON client bound to a bearer token, for terse tests. */
export function clientFor(api: FastifyInstance, token?: string) {
  const call = async (
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Call> => {
    const response = await api.inject({
      method,
      url,
      payload: payload === undefined ? undefined : (payload as InjectOptions['payload']),
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    })
    const type = String(response.headers['content-type'] ?? '')
    return {
      status: response.statusCode,
      body: type.includes('json') && response.body ? response.json() : response.body,
      headers: response.headers,
      raw: response,
    }
  }
  return {
    get: (url: string, headers?: Record<string, string>) => call('GET', url, undefined, headers),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => call('POST', url, body ?? {}, headers),
    patch: (url: string, body?: unknown, headers?: Record<string, string>) => call('PATCH', url, body ?? {}, headers),
    put: (url: string, body?: unknown, headers?: Record<string, string>) => call('PUT', url, body ?? {}, headers),
    delete: (url: string, headers?: Record<string, string>) => call('DELETE', url, undefined, headers),
  }
}
