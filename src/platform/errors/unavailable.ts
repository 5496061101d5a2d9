import type { AppError } from './app-error.ts'
import { createError } from './codes.ts'

const DATABASE_UNAVAILABLE = createError('DATABASE_UNAVAILABLE', 'unavailable')
const REDIS_UNAVAILABLE = createError('REDIS_UNAVAILABLE', 'unavailable')

/** SQLSTATE classes and codes of a server that is gone or going: connection exceptions, shutdowns, start-up. */
const PG_UNAVAILABLE = /^(08...|57P01|57P02|57P03)$/
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'])

/**
 * A request that failed because the database or Redis is unreachable (restarting, failing over) is a 503 the
 * client may retry, not a 500: nothing it asked for was done, since a lost connection rolls its transaction back.
 */
export function unavailableError(error: unknown): AppError | undefined {
  const e = error as { name?: string; code?: string; message?: string }
  if (!e || typeof e !== 'object') return undefined
  const retry = { headers: { 'retry-after': '1' } }
  // ioredis: commands refused while it reconnects, or after its retries per request ran out.
  if (e.name === 'MaxRetriesPerRequestError' || e.message === 'Connection is closed.')
    return REDIS_UNAVAILABLE('the shared cache (Redis) is not reachable; retry shortly', retry)
  if (
    (typeof e.code === 'string' && (PG_UNAVAILABLE.test(e.code) || SOCKET_CODES.has(e.code))) ||
    e.message === 'Connection terminated unexpectedly' ||
    e.message === 'Connection terminated' ||
    e.message === 'timeout exceeded when trying to connect'
  )
    return DATABASE_UNAVAILABLE('the database is not reachable; retry shortly', retry)
  // 57014: cancelled by DATABASE_STATEMENT_TIMEOUT_MS. The transaction rolled back; nothing was done.
  if (e.code === '57014') return DATABASE_UNAVAILABLE('the database did not answer in time; retry shortly', retry)
  return undefined
}
