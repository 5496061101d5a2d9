import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/database.ts'
import { AppError } from '../errors/app-error.ts'

const Status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const

/** `/healthz`: the process answers. `/readyz`: and its database does. */
export async function healthRoutes(app: FastifyInstance, { database }: { database: Database }) {
  app.get(
    '/healthz',
    { config: { scope: false }, schema: { tags: ['health'], security: [], response: { 200: Status } } },
    async () => ({
      status: 'ok',
    }),
  )
  app.get(
    '/readyz',
    {
      config: { scope: false },
      schema: { tags: ['health'], security: [], response: { 200: Status, 503: { $ref: 'Problem' } } },
    },
    async () => {
      try {
        await database.ping()
      } catch {
        throw new AppError('unavailable', 'the database is not reachable')
      }
      return { status: 'ready' }
    },
  )
}
