/**
 * The GCRA step of gcra.ts in Lua, run atomically inside Redis with Redis's own clock, so every instance shares
 * each bucket and clock skew between instances does not matter. Defines `take(key, interval, capacity)`
 * returning {allowed, remaining, retryAfterMs}; the key expires once the bucket is full again.
 */
export const GCRA_LUA = `
local function take(key, interval, capacity)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local stored = redis.call('GET', key)
  local tat = now
  if stored then tat = math.max(tonumber(stored), now) end
  local nextTat = tat + interval
  if nextTat - now > capacity then
    return {0, 0, tostring(nextTat - now - capacity)}
  end
  redis.call('SET', key, tostring(nextTat), 'PX', math.ceil(nextTat - now) + 1000)
  return {1, math.floor((capacity - (nextTat - now)) / interval), '0'}
end
`
