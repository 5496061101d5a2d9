import type { FastifyRequest } from 'fastify'
import { badRequest } from '../errors/app-error.ts'
import { createError } from '../errors/codes.ts'

/**
 * The version a PATCH expects, from `If-Match` (`3`, `"3"` or `W/"3"`) or a `version` body field; undefined
 * when the client asked for no check. A stale one is a 409 (optimistic concurrency, as Square does).
 */
export function expectedVersion(request: FastifyRequest, bodyVersion?: number): number | undefined {
  const header = request.headers['if-match']
  let fromHeader: number | undefined
  if (header !== undefined && header !== '*') {
    const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header.trim())
    if (!match)
      throw badRequest('If-Match must be a resource version', [
        { field: 'If-Match', message: 'is not a version', code: 'invalid_format' },
      ])
    fromHeader = Number(match[1])
  }
  if (fromHeader !== undefined && bodyVersion !== undefined && fromHeader !== bodyVersion) {
    throw badRequest('If-Match and version disagree', [
      { field: 'version', message: 'differs from If-Match', code: 'invalid_value' },
    ])
  }
  return fromHeader ?? bodyVersion
}

/** A write that named an older version than the resource's (If-Match or `version`). */
export const STALE_VERSION = createError('STALE_VERSION', 'conflict')

export function staleVersion(current: number): Error {
  return STALE_VERSION(`the resource has changed: its version is now ${current}; fetch it and retry`)
}
