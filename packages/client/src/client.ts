import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { OpenTillProblem, unwrap } from './problem.ts'
import type { paths } from './schema.ts'

export interface OpenTillClientOptions {
  /** The API's origin, e.g. https://api.example.com (paths carry /api/v1). */
  baseUrl: string
  /**
   * An access token you already hold (an app's), or a function answering the current one (called before each call,
   * so it can fetch a fresh token when the last is about to expire); `login` sets one for a person.
   */
  accessToken?: string | (() => string | Promise<string>)
  /** The fetch to call (tests pass their own); the global one by default. */
  fetch?: typeof globalThis.fetch
  /**
   * Whether every POST without an Idempotency-Key gets a fresh one (the default). A call whose connection fails,
   * or that the server answers 503 (nothing done, retry), is sent again with the same key, `retries` times: the
   * write is done once. Pass your own key in `headers` to retry a call yourself later.
   */
  idempotencyKeys?: boolean
  /** How many times a call is sent again after a failed connection or a 503 (2 by default; 0 never). */
  retries?: number
}

/** Calls a request is safe to send again: reads, and writes that carry an Idempotency-Key. */
const resendable = (request: Request) =>
  ['GET', 'HEAD', 'PUT', 'DELETE'].includes(request.method) || request.headers.has('idempotency-key')

/**
 * `fetch`, sending a resendable request again (its clone, so the same body and key) when the connection fails or
 * the server answers 503, after the server's Retry-After (at most 5 s) or a growing pause.
 */
function retrying(fetcher: typeof globalThis.fetch, retries: number): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init)
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries || !resendable(request)
      try {
        const response = await fetcher(last ? request : request.clone())
        if (last || response.status !== 503) return response
        const after = Number(response.headers.get('retry-after'))
        await new Promise((r) =>
          setTimeout(r, Number.isFinite(after) && after > 0 ? Math.min(after, 5) * 1000 : 200 * 2 ** attempt),
        )
      } catch (error) {
        if (last) throw error
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt))
      }
    }
  }
}

export interface Session {
  accessToken: string
  refreshToken: string
  /** When the access token expires (ms since the epoch). */
  expiresAt: number
}

/** What the typed calls answer: JSON, and problems; CSV and event streams have helpers of their own. */
type Media = 'application/json' | 'application/problem+json'

/** The typed client: `GET`, `POST`, `PATCH`, `PUT`, `DELETE` of every path, and a person's session. */
export interface OpenTillClient extends Client<paths, Media> {
  /** Signs a person in (POST /api/v1/auth/login); later calls carry the token and refresh it before it expires. */
  login(email: string, password: string): Promise<Session>
  /** The current session, if any. */
  readonly session: Session | undefined
}

/** Refresh this long before the access token expires, so a call never leaves with a token about to die. */
const REFRESH_MARGIN_MS = 30_000

export function createOpenTillClient(options: OpenTillClientOptions): OpenTillClient {
  const fetcher = retrying(options.fetch ?? globalThis.fetch, options.retries ?? 2)
  const client = createClient<paths, Media>({ baseUrl: options.baseUrl, fetch: fetcher })
  let session: Session | undefined
  let refreshing: Promise<void> | undefined
  const sessionOf = (data: { accessToken: string; refreshToken: string; expiresIn: number }): Session => ({
    accessToken: data.accessToken,
    refreshToken: data.refreshToken,
    expiresAt: Date.now() + data.expiresIn * 1000,
  })
  // The token calls go through a client of their own: no token, no refresh, no middleware loop.
  const bare = createClient<paths, Media>({ baseUrl: options.baseUrl, fetch: fetcher })
  async function refresh(): Promise<void> {
    if (!session) return
    const refreshToken = session.refreshToken
    refreshing ??= unwrap(bare.POST('/api/v1/auth/refresh', { body: { refreshToken } }))
      .then(
        ({ data }) => {
          session = sessionOf(data)
        },
        (error: unknown) => {
          // A refresh token refused (expired, revoked) ends the session: later calls go without it, not stuck on it.
          if (error instanceof OpenTillProblem && error.status === 401) session = undefined
          throw error
        },
      )
      .finally(() => {
        refreshing = undefined
      })
    await refreshing
  }

  const auth: Middleware = {
    async onRequest({ request }) {
      if (session && session.expiresAt - Date.now() < REFRESH_MARGIN_MS) await refresh()
      const given = options.accessToken
      const token = session?.accessToken ?? (typeof given === 'function' ? await given() : given)
      if (token) request.headers.set('authorization', `Bearer ${token}`)
      if (options.idempotencyKeys !== false && request.method === 'POST' && !request.headers.has('idempotency-key'))
        request.headers.set('idempotency-key', crypto.randomUUID())
      return request
    },
  }
  client.use(auth)

  // A getter, defined as one: Object.assign would copy the session's value at this moment instead.
  return Object.defineProperties(client, {
    login: {
      value: async (email: string, password: string): Promise<Session> => {
        const { data } = await unwrap(bare.POST('/api/v1/auth/login', { body: { email, password } }))
        session = sessionOf(data)
        return session
      },
    },
    session: { get: () => session, enumerable: true },
  }) as OpenTillClient
}
