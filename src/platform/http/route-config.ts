import type { RequestContext } from './context.ts'
import type { ClaimedKey } from './idempotency-store.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a bearer token needs for this route (docs/decisions.md "Scopes"); `false` marks a public route. */
    scope?: string | false
    /** `false`: the route answers its errors in a format of its own (GraphQL's), not as problems. */
    problems?: false
    /** @fastify/under-pressure's per-route handler: health and metrics set one that lets them answer under load. */
    pressureHandler?: () => undefined
    /** Idempotency-Key handling of a POST route (docs/api-conventions.md "Idempotency"). */
    idempotency?: {
      /** A retry may run again after an attempt that committed something: the route resumes from its steps. */
      resumable?: boolean
      /** `data` fields (dot paths) shown once and never stored for replays: secrets, one-time links. */
      notStored?: readonly string[]
    }
  }
  interface FastifyRequest {
    ctx: RequestContext
    /** The key a request carries, once claimed; the steps an earlier attempt recorded come with it. */
    idempotency?: ClaimedKey
  }
}
