import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'

interface ListenOptions {
  connectionString: string
  /** A fixed identifier chosen by the code, never user input (LISTEN takes no bind parameters). */
  channel: string
  onWake: () => void
  log: FastifyBaseLogger
  /** First reconnection delay; doubles up to 30 s while the server stays away. */
  retryMs?: number
}

interface Listener {
  close(): Promise<void>
}

const MAX_RETRY_MS = 30_000

/**
 * A dedicated PostgreSQL connection that LISTENs on `channel` and calls `onWake` for each notification. Only a
 * latency shortcut for a poller: after a reconnect it wakes once, since notifications sent while it was away are
 * lost.
 */
export function listenForWakeups(options: ListenOptions): Listener {
  if (!/^[a-z_][a-z0-9_]*$/.test(options.channel)) throw new Error(`invalid LISTEN channel "${options.channel}"`)
  const firstRetry = options.retryMs ?? 500
  let client: pg.Client | undefined
  let closed = false
  let retry = firstRetry
  let timer: NodeJS.Timeout | undefined

  function reconnectLater(error: unknown) {
    if (closed) return
    options.log.warn({ err: error, channel: options.channel }, `LISTEN connection lost; reconnecting in ${retry} ms`)
    timer = setTimeout(connect, retry)
    retry = Math.min(retry * 2, MAX_RETRY_MS)
  }

  async function connect() {
    timer = undefined
    if (closed) return
    const next = new pg.Client({ connectionString: options.connectionString })
    client = next
    let lost = false
    const onLost = (error: unknown) => {
      if (lost) return
      lost = true
      next.removeAllListeners('notification')
      next.end().catch(() => {})
      reconnectLater(error)
    }
    next.on('error', onLost)
    next.on('end', () => onLost(new Error('connection ended')))
    next.on('notification', () => options.onWake())
    try {
      await next.connect()
      await next.query(`LISTEN ${options.channel}`)
      retry = firstRetry
      options.onWake()
    } catch (error) {
      onLost(error)
    }
  }

  void connect()

  return {
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      const current = client
      client = undefined
      if (current) {
        current.removeAllListeners('end')
        current.removeAllListeners('notification')
        await current.end().catch(() => {})
      }
    },
  }
}
