import type { FeedEvent } from './feed-event.ts'
import type { FeedSource } from './feed-source.ts'

/** A screen as the hub sees it: something that takes its org's order events. */
export interface FeedListener {
  readonly orgId: string
  push(event: FeedEvent): void
}

/**
 * The one feed of a process, fanned out in memory: screens register here and the source (a poll or Redis)
 * runs only while at least one screen is open. Events go only to screens of the event's own org.
 */
export class KdsHub {
  private readonly byOrg = new Map<string, Set<FeedListener>>()
  private count = 0
  private source: FeedSource | undefined
  private starting: Promise<unknown> | undefined
  private stopping: Promise<void> = Promise.resolve()

  constructor(private readonly makeSource: () => FeedSource) {}

  get screens(): number {
    return this.count
  }

  /**
   * Adds a listener and resolves once the feed runs: anything committed after this resolves reaches the
   * listener, so a replay read afterwards overlaps the live feed instead of leaving a gap.
   */
  async add(listener: FeedListener): Promise<void> {
    let set = this.byOrg.get(listener.orgId)
    if (!set) {
      set = new Set()
      this.byOrg.set(listener.orgId, set)
    }
    if (!set.has(listener)) {
      set.add(listener)
      this.count++
    }
    if (!this.source) {
      const source = this.makeSource()
      this.source = source
      this.starting = this.stopping.then(() => source.start((events) => this.deliver(events)))
    }
    try {
      await this.starting
    } catch (error) {
      this.remove(listener)
      throw error
    }
  }

  remove(listener: FeedListener): void {
    const set = this.byOrg.get(listener.orgId)
    if (!set?.delete(listener)) return
    this.count--
    if (set.size === 0) this.byOrg.delete(listener.orgId)
    if (this.count === 0 && this.source) {
      const source = this.source
      const started = this.starting ?? Promise.resolve()
      this.source = undefined
      this.starting = undefined
      this.stopping = started.then(
        () => source.stop(),
        () => {},
      )
    }
  }

  /** Waits until a source stopped by the last screen leaving has finished its last query. */
  async idle(): Promise<void> {
    await this.stopping
  }

  private deliver(events: FeedEvent[]): void {
    for (const event of events) {
      const listeners = this.byOrg.get(event.orgId)
      if (!listeners) continue
      for (const listener of listeners) listener.push(event)
    }
  }
}
