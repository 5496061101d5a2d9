import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

export interface EmbeddedDatabase {
  /** A postgres:// URL on loopback that the ordinary `pg` pool connects to. */
  readonly url: string
  stop(): Promise<void>
}

/**
 * Opens PGlite (in `dataDir`, or in memory for `memory://`) and serves it on a loopback socket, so the app
 * talks to it with the same `pg` pool and SQL as to a PostgreSQL server. PGlite is one single-user backend:
 * every connection shares one session, and the socket serialises queries, keeping a transaction exclusive.
 */
export async function startEmbeddedDatabase(location: string): Promise<EmbeddedDatabase> {
  const inMemory = location.startsWith('memory://')
  if (!inMemory) mkdirSync(location, { recursive: true })
  // Relaxed durability is PGlite's documented trade-off; the start banner says so.
  const db = await PGlite.create(inMemory ? undefined : location, { relaxedDurability: true })
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 })
  await server.start()
  const address = server.getServerConn()
  return {
    url: `postgres://postgres@${address}/postgres`,
    async stop() {
      await server.stop()
      await db.close()
    },
  }
}
