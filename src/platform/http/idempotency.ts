import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../db/database.ts'
import { badRequest } from '../errors/app-error.ts'
import { createError } from '../errors/codes.ts'
import { claimKey, completeKey, type KeyRef, releaseKey } from './idempotency-store.ts'

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

const IDEMPOTENCY_KEY_IN_USE = createError('IDEMPOTENCY_KEY_IN_USE', 'conflict')
const IDEMPOTENCY_KEY_INTERRUPTED = createError('IDEMPOTENCY_KEY_INTERRUPTED', 'conflict')
const IDEMPOTENCY_KEY_REUSED = createError('IDEMPOTENCY_KEY_REUSED', 'validation')

/** What a stored answer holds instead of a secret it showed once (docs/api-conventions.md "Idempotency"). */
export const NOT_STORED = '(shown once; not kept for replays)'

/**
 * `Idempotency-Key` on any POST (draft-ietf-httpapi-idempotency-key-header), as Stripe keeps it: the key is
 * committed "in progress" in a transaction of its own before the request's work runs; the work commits as it
 * would without a key; outbound results are recorded as steps before anything else can fail (`ctx.once`); the
 * answer is stored last. The same key and body within 24 h replays a stored answer; another body is a 422; while
 * an attempt runs, a 409. No transaction is ever held open across the work (docs/architecture.md "No outbound call
 * inside a transaction").
 */
export const idempotency = fp(
  async (app: FastifyInstance, options: { database: Database }) => {
    const { database } = options

    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST' || !request.ctx) return
      const header = request.headers['idempotency-key']
      if (header === undefined) return
      const key = Array.isArray(header) ? header[0] : header
      if (!KEY_PATTERN.test(key)) {
        throw badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters', [
          { field: 'Idempotency-Key', message: 'is malformed', code: 'invalid_format' },
        ])
      }
      const { ctx } = request
      const ref: KeyRef = { orgId: ctx.orgId, scope: `${ctx.actor.clientId}:${ctx.actor.userId ?? ''}`, key }
      const resumable = request.routeOptions.config.idempotency?.resumable === true
      const claim = await claimKey(database, ref, fingerprintOf(request), resumable)
      switch (claim.kind) {
        case 'run':
          request.idempotency = { ...ref, steps: claim.steps }
          return
        case 'replay':
          reply.header('idempotent-replayed', 'true').code(claim.statusCode).type(claim.contentType)
          return reply.send(claim.body)
        case 'reused':
          throw IDEMPOTENCY_KEY_REUSED('this Idempotency-Key was used with a different request', {
            errors: [
              {
                field: 'Idempotency-Key',
                message: 'was already used with a different request',
                code: 'idempotency_key_reused',
              },
            ],
          })
        case 'in-progress':
          throw IDEMPOTENCY_KEY_IN_USE('a request with this Idempotency-Key is still in progress; retry shortly', {
            headers: { 'retry-after': '1' },
          })
        case 'interrupted':
          throw IDEMPOTENCY_KEY_INTERRUPTED(
            'the first request with this Idempotency-Key stopped after changing data and before answering; look the result up instead of retrying',
          )
      }
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const claimed = request.idempotency
      if (!claimed) return payload
      request.idempotency = undefined
      try {
        if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
          await completeKey(database, claimed, {
            statusCode: reply.statusCode,
            contentType: String(reply.getHeader('content-type') ?? 'application/json'),
            body: withoutSecrets(payload, request.routeOptions.config.idempotency?.notStored),
          })
        } else {
          await releaseKey(database, claimed, reply.statusCode >= 400 && reply.statusCode < 500)
        }
      } catch (error) {
        // The work is done and its answer goes out; a retry finds the key in progress, then interrupted.
        request.log.error({ err: error }, 'storing the idempotent answer failed')
      }
      return payload
    })
  },
  { name: 'opentill-idempotency', dependencies: ['opentill-authenticate'] },
)

/**
 * The answer as stored for replays: each field the route names, by its path from the top of the answer
 * (`data.secret`, `client_secret`), is replaced by NOT_STORED.
 */
function withoutSecrets(payload: string, paths: readonly string[] | undefined): string {
  if (!paths?.length) return payload
  const parsed = JSON.parse(payload) as Record<string, unknown>
  for (const path of paths) {
    const parts = path.split('.')
    let node: Record<string, unknown> | undefined = parsed
    for (const part of parts.slice(0, -1)) node = node?.[part] as Record<string, unknown> | undefined
    const last = parts[parts.length - 1]
    if (node && last in node) node[last] = NOT_STORED
  }
  return JSON.stringify(parsed)
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
    .digest('hex')
}

/** JSON with sorted keys, so the same body sent with another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}
