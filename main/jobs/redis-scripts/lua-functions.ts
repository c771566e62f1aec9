// Lua functions the job scripts share, prepended to each script that calls them.

// Shared Lua: moves a job from one status set to another, and ends a job (its status, finish and
// expiry times, and its webhook's delivery to make). Keys are named by the prefix every script gets
// as ARGV[1].
export const MOVE_STATUS = `
local function move_status(prefix, id, from, to, created)
  redis.call('ZREM', prefix .. 'status:' .. from, id)
  redis.call('ZADD', prefix .. 'status:' .. to, created, id)
end
local function ended(prefix, key, id, status, now)
  local created = redis.call('HGET', key, 'queue_order')
  local ttl = tonumber(redis.call('HGET', key, 'ttl_ms'))
  local from = redis.call('HGET', key, 'status')
  move_status(prefix, id, from, status, created)
  local expires = tonumber(now) + ttl
  redis.call('HSET', key, 'status', status, 'finished_at', now, 'expires_at', string.format('%d', expires))
  redis.call('ZADD', prefix .. 'expiry', expires, id)
  if redis.call('HEXISTS', key, 'webhook_json') == 1 then
    redis.call('SADD', prefix .. 'webhooks:ended', id)
  end
end
`;

// Shared Lua: a write's fence ('' for none, else the attempt the job must still be running under).
export const HELD = `
local function held(key, fence)
  if redis.call('HGET', key, 'status') ~= 'running' then return false end
  return fence == '' or tonumber(redis.call('HGET', key, 'attempts')) == tonumber(fence)
end
`;
