import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.ts'
import type { RequestContext } from '../../platform/http/context.ts'
import type { Runtime } from '../../platform/runtime.ts'
import type { FeedCursor } from './feed-cursor.ts'
import { type FeedEvent, toFeedEvent } from './feed-event.ts'
import { FEED_BATCH, PollingSource, readFeedHead } from './feed-source.ts'
import { type FeedListener, KdsHub } from './hub.ts'
import * as repo from './kds.repo.ts'
import { RedisSource } from './redis-source.ts'
import { MemorySeats, RedisSeats, type Seat, type StreamSeats, takeStreamSeat } from './stream-seats.ts'

/** A screen the service can close when the process shuts down. */
export interface OpenScreen extends FeedListener {
  close(): void
}

/** The kitchen feed's service; its settings are the configuration's `kds` (KDS_* variables). */
export function createKdsService(runtime: Runtime, options: Config['kds'] = runtime.config.kds) {
  let log: FastifyBaseLogger | undefined
  const onError = (error: unknown) => log?.error({ err: error }, 'kitchen feed error')
  const hub = new KdsHub(() =>
    runtime.redis
      ? new RedisSource(
          runtime.database,
          runtime.redis,
          runtime.deploymentName,
          { pollMs: options.pollMs, reconcileMs: options.reconcileMs },
          onError,
        )
      : new PollingSource(runtime.database, options.pollMs, onError),
  )
  const open = new Set<OpenScreen>()
  // A seat not refreshed for three heartbeats belonged to an instance that died.
  const seats: StreamSeats = runtime.redis
    ? new RedisSeats(runtime.redis, runtime.deploymentName, options.heartbeatMs * 3)
    : new MemorySeats()

  return {
    options,
    hub,

    useLogger(logger: FastifyBaseLogger): void {
      log = logger
    },

    /**
     * A place for one more stream of the org and of the credential it is opened with (its session or grant); a
     * 429 (KDS_CREDENTIAL_STREAM_LIMIT, KDS_STREAM_LIMIT) when either holds its maximum.
     */
    async takeSeat(orgId: string, credentialId: string): Promise<Seat> {
      return takeStreamSeat(seats, orgId, credentialId, {
        perOrg: options.maxStreamsPerOrg,
        perCredential: options.maxStreamsPerCredential,
      })
    },

    /** Whether the credential a stream was opened with still stands (its session or grant not revoked). */
    async sessionStands(sessionId: string): Promise<boolean> {
      return !(await runtime.revocations.isRevoked(sessionId))
    },

    /** Registers a screen with the process's feed; resolves once live events reach it. */
    async attach(screen: OpenScreen): Promise<void> {
      open.add(screen)
      try {
        await hub.add(screen)
      } catch (error) {
        open.delete(screen)
        throw error
      }
    },

    detach(screen: OpenScreen): void {
      open.delete(screen)
      hub.remove(screen)
    },

    /** Where a screen that asks for nothing missed starts: the newest event every reader can see. */
    head(): Promise<FeedCursor> {
      return readFeedHead(runtime.database)
    },

    /** Every order event of the org after `after` (optionally of one location), in commit order, page by page. */
    async replay(
      ctx: RequestContext,
      after: FeedCursor,
      locationId: string | undefined,
      each: (events: FeedEvent[]) => void,
    ): Promise<void> {
      let cursor = after
      for (;;) {
        const rows = await ctx.db.read((q) => repo.orgFeedAfter(q, ctx.orgId, cursor, locationId, FEED_BATCH))
        if (rows.length === 0) return
        const events = rows.map(toFeedEvent)
        each(events)
        cursor = events[events.length - 1].cursor
        if (rows.length < FEED_BATCH) return
      }
    },

    /** Ends every open stream (app.close()) and lets the feed stop. */
    async closeAll(): Promise<void> {
      for (const screen of [...open]) screen.close()
      await hub.idle()
    },
  }
}

export type KdsService = ReturnType<typeof createKdsService>
