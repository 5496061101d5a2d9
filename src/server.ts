import { resolve } from 'node:path'
import { buildApp } from './app.ts'
import type { Config } from './config.ts'
import { openRuntime } from './platform/runtime.ts'
import { seedDemoIfEmpty } from './seed.ts'
import { buildWebApp } from './web/index.ts'
import { startWorkers } from './worker.ts'

/** `opentill serve`: open the database (migrating under its lock), seed a demo on first start, listen. */
export async function serve(config: Config): Promise<void> {
  const runtime = await openRuntime(config, { migrate: true, serving: true })
  const { api, services, drain } = await buildApp(runtime)
  const demo = config.seedDemo ? await seedDemoIfEmpty(runtime, services) : null
  await api.listen({ port: config.port, host: config.host })
  // Workers run here unless WORKERS=false leaves them to `opentill worker` processes.
  const workers = config.workers ? startWorkers(runtime, api.log, services) : null
  const web = await buildWebApp(runtime, services)
  await web.listen({ port: config.appPort, host: config.host })

  const lines = [
    `OpenTill API listening on ${config.baseUrl}`,
    `  Back office: ${config.appUrl}/dashboard  (sign in with the owner's e-mail and password)`,
    config.env !== 'production'
      ? `  API docs: ${config.baseUrl}/docs  (OpenAPI: ${config.baseUrl}/openapi.json)`
      : null,
    runtime.embeddedDir
      ? `  Database: embedded PostgreSQL in ${resolve(runtime.embeddedDir)} (durable; stopped with this server). To move to a managed PostgreSQL server: pg_dump it and set DATABASE_URL (docs/operations.md).`
      : '  Database: PostgreSQL server (DATABASE_URL)',
    config.redisUrl ? '  Redis: shared rate limits, revocations and live feeds' : null,
    workers
      ? '  Workers: webhook delivery, event retention and automations run here (WORKERS=false leaves them to `opentill worker`)'
      : null,
    demo
      ? `  Demo org created. Log in: POST ${config.baseUrl}/api/v1/auth/login {"email":"${demo.email}","password":"${demo.password}"}`
      : null,
  ]
  process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`)

  let closing = false
  /**
   * Graceful shutdown (docs/operations.md): /readyz turns 503 at once so the load balancer stops sending; the
   * listeners stop accepting while the requests in flight finish; the workers finish their batch and hand back
   * their leases; then the database. SHUTDOWN_TIMEOUT_MS ends it anyway.
   */
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    drain()
    api.log.info({ signal, deadlineMs: config.shutdownTimeoutMs }, 'shutting down')
    setTimeout(() => {
      process.stderr.write(
        `opentill serve: shutdown took longer than SHUTDOWN_TIMEOUT_MS=${config.shutdownTimeoutMs}\n`,
      )
      process.exit(1)
    }, config.shutdownTimeoutMs).unref()
    await Promise.all([api.close(), web.close()])
    await workers?.stop()
    await runtime.close()
    process.exit(0)
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
}
