/** Rate limits: GCRA buckets in memory or Redis, per org by plan and per account and address on credentials. */
export { CREDENTIAL_LIMITS } from './credential-limits.ts'
export { take } from './enforce.ts'
export { gcra, type Limit, type OrgLimitOf, type RateLimitStore } from './gcra.ts'
export { MemoryRateLimitStore } from './memory-store.ts'
export { loginAccountLimit, loginAddressLimit, passwordResetLimit, rateLimit, tillLimit } from './rate-limit.ts'
export { RedisRateLimitStore } from './redis-store.ts'
