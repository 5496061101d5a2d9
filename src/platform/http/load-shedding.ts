import underPressure from '@fastify/under-pressure'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/database.ts'
import { problem } from '../errors/problem.ts'

/**
 * Load shedding (@fastify/under-pressure): when the event loop lags beyond `eventLoopDelayMs` (a mean: sustained
 * lag), is busy more than `eventLoopUtilization` of the last quarter second (a stall), or more than
 * `poolWaiting` checkouts wait for a database connection, a request is answered at once with a 503 problem and
 * `Retry-After`, before any other work, rather than queueing into a timeout. Routes whose config carries
 * `pressureHandler: () => undefined` (health, metrics) keep answering.
 */
export async function installLoadShedding(
  app: FastifyInstance,
  options: { database: Database; eventLoopDelayMs: number; eventLoopUtilization: number; poolWaiting: number },
): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: options.eventLoopDelayMs,
    maxEventLoopUtilization: options.eventLoopUtilization,
    // Utilization of each sample window, not since start: a stall now counts now.
    eventLoopUtilizationMode: 'interval',
    // The mean delay of each quarter second: a stall is noticed within 250 ms, and forgotten as fast.
    sampleInterval: 250,
    healthCheck: async () => options.database.poolStats().waiting <= options.poolWaiting,
    healthCheckInterval: 250,
    pressureHandler: (request, reply, type) => {
      reply.code(503).header('retry-after', '1').type('application/problem+json; charset=utf-8')
      const reason = type === 'healthCheck' ? 'the database pool is saturated' : `the server is overloaded (${type})`
      // under-pressure sends what the handler returns (its types say void).
      return problem('unavailable', `${reason}; retry shortly`, request.url.split('?')[0]) as unknown as undefined
    },
  })
}
