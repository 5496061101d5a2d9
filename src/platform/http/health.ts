import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/database.ts'
import { AppError } from '../errors/app-error.ts'

const Status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const

/** Whether the process is stopping: `/readyz` then answers 503 so a load balancer sends no new requests. */
interface Draining {
  readonly draining: boolean
}

/** `/healthz`: the process answers. `/readyz`: and its database does, and it is not stopping. */
export async function healthRoutes(app: FastifyInstance, { database, state }: { database: Database; state: Draining }) {
  app.get(
    '/healthz',
    // Answers under load shedding too: the process is alive, only busy.
    {
      config: { scope: false, pressureHandler: () => undefined },
      schema: {
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers (also under load shedding)',
        tags: ['health'],
        security: [],
        response: { 200: Status },
      },
    },
    async () => ({
      status: 'ok',
    }),
  )
  app.get(
    '/readyz',
    {
      config: { scope: false },
      schema: {
        operationId: 'getReadiness',
        summary: 'Readiness: the database answers and the instance is not shutting down (503 otherwise)',
        tags: ['health'],
        security: [],
        response: { 200: Status, 503: { $ref: 'Problem' } },
      },
    },
    async () => {
      if (state.draining)
        throw new AppError('unavailable', 'this instance is shutting down', { headers: { 'retry-after': '1' } })
      try {
        await database.ping()
      } catch {
        throw new AppError('unavailable', 'the database is not reachable')
      }
      return { status: 'ready' }
    },
  )
}
