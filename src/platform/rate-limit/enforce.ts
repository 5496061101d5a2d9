import type { FastifyReply } from 'fastify'
import { AppError } from '../errors/app-error.ts'
import type { Decision, Limit, RateLimitStore } from './gcra.ts'

/** Retry-After in whole seconds until one token is back (docs/decisions.md "Rate limits"), at least 1. */
function retryAfterSeconds(decision: Decision): number {
  return Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
}

export function tooManyRequests(decision: Decision, what: string): AppError {
  return new AppError('rate-limited', `too many requests ${what}; retry after ${retryAfterSeconds(decision)} s`, {
    headers: { 'retry-after': String(retryAfterSeconds(decision)) },
  })
}

/** Takes one token for `key`; refuses with a 429 carrying Retry-After. `headers` adds the X-RateLimit pair. */
export async function take(
  store: RateLimitStore,
  reply: FastifyReply | null,
  key: string,
  limit: Limit,
  what: string,
  headers = false,
): Promise<void> {
  const decision = await store.take(key, limit)
  if (headers && reply) {
    reply
      .header('x-ratelimit-limit', String(decision.limit))
      .header('x-ratelimit-remaining', String(decision.remaining))
  }
  if (!decision.allowed) throw tooManyRequests(decision, what)
}
