import type { Redis } from 'ioredis'
import type { Decision, Limit, RateLimitStore } from './gcra.ts'

/**
 * The same GCRA step as gcra.ts, run atomically inside Redis with Redis's own clock, so every instance shares
 * each bucket and clock skew between instances does not matter. The key expires once the bucket is full again.
 */
const SCRIPT = `
local interval = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local stored = redis.call('GET', KEYS[1])
local tat = now
if stored then tat = math.max(tonumber(stored), now) end
local nextTat = tat + interval
if nextTat - now > capacity then
  return {0, 0, tostring(nextTat - now - capacity)}
end
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now) + 1000)
return {1, math.floor((capacity - (nextTat - now)) / interval), '0'}
`

export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    redis.defineCommand('opentillGcra', { numberOfKeys: 1, lua: SCRIPT })
  }

  async take(key: string, limit: Limit): Promise<Decision> {
    const interval = 60_000 / limit.perMinute
    const run = (
      this.redis as unknown as { opentillGcra(k: string, i: number, c: number): Promise<[number, number, string]> }
    ).opentillGcra
    const [allowed, remaining, retry] = await run.call(
      this.redis,
      `opentill:rl:${this.namespace}:${key}`,
      interval,
      limit.burst * interval,
    )
    return { allowed: allowed === 1, limit: limit.perMinute, remaining, retryAfterMs: Number(retry) }
  }
}
