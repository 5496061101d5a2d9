/** Rate limits: GCRA buckets in memory or Redis, per org by plan and per account and address on credentials. */
export { retryAfterSeconds } from './enforce.ts'
export { type Decision, gcra, type Limit, type RateLimitStore } from './gcra.ts'
export { MemoryRateLimitStore } from './memory-store.ts'
export { CREDENTIAL_LIMITS, limitOf, PLAN_LIMITS } from './plans.ts'
export { loginAccountLimit, loginAddressLimit, rateLimit } from './rate-limit.ts'
export { RedisRateLimitStore } from './redis-store.ts'
export { rateLimitStoreOf } from './store.ts'
