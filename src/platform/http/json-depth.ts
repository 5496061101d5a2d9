import type { FastifyInstance } from 'fastify'
import { createError } from '../errors/codes.ts'

/** How deep a JSON body may nest: far more than any request of the API needs (docs/api-conventions.md). */
const MAX_JSON_DEPTH = 64

export const BODY_TOO_DEEP = createError('BODY_TOO_DEEP', 'bad-request')

/**
 * The deepest nesting of arrays and objects in a JSON text, counted without recursion and given up as soon as it
 * passes `limit` (the text need not be valid: the parser judges that after).
 */
function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      // A backslash escapes the next character.
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

/**
 * JSON bodies nested deeper than MAX_JSON_DEPTH are refused with a 400 before they are parsed: everything that walks
 * a body afterwards (the NUL check, the Idempotency-Key's canonical form, the validator) recurses, and 20,000
 * nested arrays in 40 KB used to end in a 500 on every JSON route, before sign-in too.
 */
export function refuseDeepJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    const body = String(text)
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      done(BODY_TOO_DEEP(`the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`), undefined)
      return
    }
    parse(request, body, done)
  })
}
