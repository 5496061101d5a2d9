import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Runtime } from '../runtime.ts'
import type { CatalogCache } from './index.ts'
import { restKey } from './keys.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET whose 200 answers are cached per org under the org's catalog version. */
    responseCache?: 'catalog'
  }
  interface FastifyInstance {
    /** The process's catalog cache; null when answers are not cached (a server database without Redis). */
    catalogCache: CatalogCache | null
  }
  interface FastifyRequest {
    /** The org's catalog version, read by the guard before any database read (null: not cached). */
    catalogVersion: string | null
    /** Where this request's answer is to be stored once it is known to be a 200. */
    responseCacheKey: string | null
  }
}

const JSON_TYPE = 'application/json; charset=utf-8'

/** Sends the cached body under `key` when there is one; `x-cache` says whether it was a hit. */
export function serveCached(cache: CatalogCache, reply: FastifyReply, key: string): boolean {
  const hit = cache.responses.get(key)
  if (hit) {
    reply.header('x-cache', 'hit').type(JSON_TYPE).send(hit)
    return true
  }
  reply.header('x-cache', 'miss')
  return false
}

/**
 * Cached answers for routes marked `config.responseCache: 'catalog'`. The lookup runs after the guard (token,
 * revocation, scope, rate limit: a cached answer still counts and still carries its own X-RateLimit-* and
 * X-Request-Id headers) and before validation and the handler.
 */
export const responseCache = fp(
  async (app: FastifyInstance, runtime: Pick<Runtime, 'catalogCache'>) => {
    const cache = runtime.catalogCache
    app.decorate('catalogCache', cache)
    app.decorateRequest('responseCacheKey', null)

    if (!cache) return

    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config?.responseCache !== 'catalog') return
      if (request.catalogVersion === null || !request.ctx) return
      const key = restKey(request.ctx.orgId, request.catalogVersion, request.url)
      if (serveCached(cache, reply, key)) return reply
      request.responseCacheKey = key
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const key = request.responseCacheKey
      if (typeof key === 'string' && reply.statusCode === 200 && typeof payload === 'string') {
        cache.responses.set(key, Buffer.from(payload))
      }
      return payload
    })
  },
  { name: 'opentill-response-cache', dependencies: ['opentill-authenticate'] },
)

/**
 * An onSend hook for the catalog's routes: any request that may have written (every method but GET and HEAD)
 * moves the org's catalog version on. onSend runs after the service's transaction and after the idempotency
 * transaction have committed and before the client has the answer, so its next read misses the old entries.
 * A failed write moves it on too: that costs one cache miss, never a stale answer.
 */
export async function bumpCatalogAfterWrite(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.ctx) return payload
  const cache = request.server.catalogCache
  if (cache) await cache.versions.bump(request.ctx.orgId)
  return payload
}
