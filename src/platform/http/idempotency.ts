import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type pg from 'pg'
import type { Database, Queryable } from '../db/database.ts'
import { AppError, badRequest, conflict } from '../errors/app-error.ts'

export interface AmbientTransaction {
  client: pg.PoolClient
  q: Queryable
  scope: string
  key: string
  fingerprint: string
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/

/**
 * `Idempotency-Key` on any POST (draft-ietf-httpapi-idempotency-key-header). The request runs in one
 * transaction that also stores its response, so an effect is never committed without the answer that replays it:
 * the same key and body within 24 h returns the first response; another body, 422; while the first runs, 409.
 * Only successful answers are kept: a failed request changed nothing and may be retried with the same key.
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
      const scope = `${ctx.actor.clientId}:${ctx.actor.userId ?? ''}`
      const fingerprint = fingerprintOf(request)
      const client = await database.connect()
      let handedOver = false
      try {
        const q = await database.begin(client, ctx.orgId)
        const lock = await q.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [
          `${ctx.orgId}|${scope}|${key}`,
        ])
        if (!lock.rows[0].ok) throw conflict('a request with this Idempotency-Key is still in progress; retry shortly')
        const stored = await q.query<{
          fingerprint: string
          status_code: number
          content_type: string
          body: string
          fresh: boolean
        }>(
          `SELECT fingerprint, status_code, content_type, body, created_at > now() - interval '24 hours' AS fresh
           FROM idempotency_keys WHERE org_id = $1 AND client_id = $2 AND key = $3`,
          [ctx.orgId, scope, key],
        )
        const previous = stored.rows[0]
        if (previous?.fresh) {
          if (previous.fingerprint !== fingerprint) {
            throw new AppError('validation', 'this Idempotency-Key was used with a different request', {
              errors: [
                {
                  field: 'Idempotency-Key',
                  message: 'was already used with a different request',
                  code: 'idempotency_key_reused',
                },
              ],
            })
          }
          await client.query('ROLLBACK')
          reply.header('idempotent-replayed', 'true').code(previous.status_code).type(previous.content_type)
          return reply.send(previous.body)
        }
        if (previous)
          await q.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND client_id = $2 AND key = $3', [
            ctx.orgId,
            scope,
            key,
          ])
        request.ambientTx = { client, q, scope, key, fingerprint }
        handedOver = true
      } finally {
        if (!handedOver) {
          await client.query('ROLLBACK').catch(() => {})
          client.release()
        }
      }
    })

    app.addHook('onSend', async (request, reply, payload) => {
      const ambient = request.ambientTx
      if (!ambient) return payload
      request.ambientTx = undefined
      try {
        if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
          await ambient.q.query(
            `INSERT INTO idempotency_keys (org_id, client_id, key, fingerprint, status_code, content_type, body)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [
              request.ctx.orgId,
              ambient.scope,
              ambient.key,
              ambient.fingerprint,
              reply.statusCode,
              String(reply.getHeader('content-type') ?? 'application/json'),
              payload,
            ],
          )
          await ambient.client.query('COMMIT')
        } else {
          await ambient.client.query('ROLLBACK')
        }
      } catch (error) {
        await ambient.client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        ambient.client.release()
      }
      return payload
    })

    // A client that goes away mid-request must not leave the transaction open.
    const abandon = async (request: FastifyRequest) => {
      const ambient = request.ambientTx
      if (!ambient) return
      request.ambientTx = undefined
      await ambient.client.query('ROLLBACK').catch(() => {})
      ambient.client.release()
    }
    app.addHook('onRequestAbort', abandon)
    app.addHook('onResponse', abandon)
  },
  { name: 'opentill-idempotency', dependencies: ['opentill-authenticate'] },
)

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
