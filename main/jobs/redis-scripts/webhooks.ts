// Lua: the webhook outbox. Ended jobs (the set `ended` in lua-functions.ts adds to) get their
// delivery; due deliveries are leased to one API process at a time; each attempt is recorded.

/** ARGV: prefix, now: makes the delivery of every ended job with a webhook that has none yet. */
export const ENQUEUE_WEBHOOKS = `
local prefix, now = ARGV[1], ARGV[2]
local made = 0
for _, id in ipairs(redis.call('SMEMBERS', prefix .. 'webhooks:ended')) do
  local key = prefix .. 'job:' .. id
  local status = redis.call('HGET', key, 'status')
  local target = redis.call('HGET', key, 'webhook_json')
  local delivery = prefix .. 'webhook:' .. id
  if target and (status == 'succeeded' or status == 'failed' or status == 'canceled')
     and redis.call('EXISTS', delivery) == 0 then
    local event = 'render.' .. status
    local state = 'skipped'
    for _, wanted in ipairs(cjson.decode(target).events) do
      if wanted == event then state = 'pending' end
    end
    redis.call('HSET', delivery, 'event', event, 'state', state, 'attempts', 0, 'history_json', '[]')
    if state == 'pending' then redis.call('ZADD', prefix .. 'webhooks:due', now, id) end
    made = made + 1
  end
  redis.call('SREM', prefix .. 'webhooks:ended', id)
end
return made
`;

/** ARGV: prefix, now, limit, lease: due deliveries, each leased to the caller. */
export const DUE_WEBHOOKS = `
local prefix, now, limit, lease = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'webhooks:due', '-inf', now, 'LIMIT', 0, limit)) do
  local delivery = prefix .. 'webhook:' .. id
  local target = redis.call('HGET', prefix .. 'job:' .. id, 'webhook_json')
  if target and redis.call('HGET', delivery, 'state') == 'pending' then
    redis.call('ZADD', prefix .. 'webhooks:due', tonumber(now) + lease, id)
    table.insert(out, id)
    table.insert(out, cjson.decode(target).url)
    table.insert(out, redis.call('HGET', delivery, 'event'))
    table.insert(out, redis.call('HGET', delivery, 'attempts'))
  else
    redis.call('ZREM', prefix .. 'webhooks:due', id)
  end
end
return out
`;

/** ARGV: prefix, id, attempt JSON, state, nextAt or ''. */
export const RECORD_WEBHOOK = `
local prefix, id = ARGV[1], ARGV[2]
local delivery = prefix .. 'webhook:' .. id
if redis.call('EXISTS', delivery) == 0 then return 0 end
local history = redis.call('HGET', delivery, 'history_json')
-- Appended as text: cjson would turn an empty history into an object.
if history == '[]' then history = '[' .. ARGV[3] .. ']'
else history = string.sub(history, 1, -2) .. ',' .. ARGV[3] .. ']' end
redis.call('HINCRBY', delivery, 'attempts', 1)
redis.call('HSET', delivery, 'state', ARGV[4], 'history_json', history)
if ARGV[4] == 'pending' and ARGV[5] ~= '' then
  redis.call('ZADD', prefix .. 'webhooks:due', ARGV[5], id)
else
  redis.call('ZREM', prefix .. 'webhooks:due', id)
end
return 1
`;
