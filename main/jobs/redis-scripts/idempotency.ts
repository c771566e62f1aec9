// Lua: an Idempotency-Key claimed, or what an earlier request with it became, in one step, so two
// API processes never both claim one key.

/** ARGV: prefix, scope, key, fingerprint, now, ttlMs, staleMs. */
export const CLAIM_IDEMPOTENCY = `
local key = ARGV[1] .. 'idempotency:' .. ARGV[2] .. ':' .. ARGV[3]
local now, ttl, stale = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
-- Forgotten after its time by the store's clock (Redis's own expiry also bounds what is kept).
local created = tonumber(redis.call('HGET', key, 'created_at'))
if not created or created <= now - ttl then
  redis.call('DEL', key)
  redis.call('HSET', key, 'fingerprint', ARGV[4], 'created_at', ARGV[5])
  redis.call('PEXPIRE', key, ttl)
  return {'claimed'}
end
if redis.call('HGET', key, 'fingerprint') ~= ARGV[4] then return {'mismatch'} end
local job = redis.call('HGET', key, 'job_id')
if job then return {'done', job} end
if tonumber(redis.call('HGET', key, 'created_at')) <= now - stale then
  redis.call('HSET', key, 'created_at', ARGV[5])
  redis.call('PEXPIRE', key, ttl)
  return {'claimed'}
end
return {'in_progress'}
`;
