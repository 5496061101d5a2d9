import type { Redis } from 'ioredis'
import { GCRA_LUA } from './gcra.lua.ts'
import type { Decision, Limit, RateLimitStore } from './gcra.ts'

const SCRIPT = `${GCRA_LUA}
return take(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
`

/** The Redis key of a bucket; `namespace` keeps deployments sharing one Redis apart. */
export function bucketKey(namespace: string, key: string): string {
  return `opentill:rl:${namespace}:${key}`
}

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
      bucketKey(this.namespace, key),
      interval,
      limit.burst * interval,
    )
    return { allowed: allowed === 1, limit: limit.perMinute, remaining, retryAfterMs: Number(retry) }
  }
}
