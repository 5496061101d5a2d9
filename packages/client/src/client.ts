import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { unwrap } from './problem.ts'
import type { paths } from './schema.ts'

export interface OpenTillClientOptions {
  /** The API's origin, e.g. https://api.example.com (paths carry /api/v1). */
  baseUrl: string
  /** An access token you already hold (an app's); `login` sets one for a person. */
  accessToken?: string
  /** The fetch to call (tests pass their own); the global one by default. */
  fetch?: typeof globalThis.fetch
  /**
   * Whether every POST without an Idempotency-Key gets a fresh one (the default): a write the network loses can
   * then be retried with the same key and done once. Pass your own key in `headers` to retry.
   */
  idempotencyKeys?: boolean
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
  const client = createClient<paths, Media>({ baseUrl: options.baseUrl, fetch: options.fetch })
  let session: Session | undefined
  let refreshing: Promise<void> | undefined
  const sessionOf = (data: { accessToken: string; refreshToken: string; expiresIn: number }): Session => ({
    accessToken: data.accessToken,
    refreshToken: data.refreshToken,
    expiresAt: Date.now() + data.expiresIn * 1000,
  })
  // The token calls go through a client of their own: no token, no refresh, no middleware loop.
  const bare = createClient<paths, Media>({ baseUrl: options.baseUrl, fetch: options.fetch })
  async function refresh(): Promise<void> {
    if (!session) return
    const refreshToken = session.refreshToken
    refreshing ??= unwrap(bare.POST('/api/v1/auth/refresh', { body: { refreshToken } }))
      .then(({ data }) => {
        session = sessionOf(data)
      })
      .finally(() => {
        refreshing = undefined
      })
    await refreshing
  }

  const auth: Middleware = {
    async onRequest({ request }) {
      if (session && session.expiresAt - Date.now() < REFRESH_MARGIN_MS) await refresh()
      const token = session?.accessToken ?? options.accessToken
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
