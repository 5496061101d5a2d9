import { type Decision, gcra, type Limit, type RateLimitStore } from './gcra.ts'

/** A single process's buckets; keys whose bucket is full again are pruned as the map grows. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, limit: Limit): Promise<Decision> {
    const now = this.now()
    if (this.tats.size > 50_000) this.prune(now)
    const step = gcra(limit, this.tats.get(key) ?? null, now)
    this.tats.set(key, step.tat)
    return step.decision
  }

  private prune(now: number): void {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key)
  }
}
