// Lua: a job into the queue (INSERT), taken from it by a worker (CLAIM), and put back (REQUEUE). Each
// is one script, so no two processes take one job.
import { HELD, MOVE_STATUS } from './lua-functions.ts';

/**
 * ARGV: prefix, id, created, expires, then field/value pairs. Adds a queued job, or returns 0 when
 * the id is taken. Queue order: creation time, then insertion for equal times (a sequence mod 1000;
 * exact in a double until the year 2255).
 */
export const INSERT = `
local prefix, id = ARGV[1], ARGV[2]
local key = prefix .. 'job:' .. id
if redis.call('EXISTS', key) == 1 then return 0 end
local order = string.format('%d', tonumber(ARGV[3]) * 1000 + redis.call('INCR', prefix .. 'sequence') % 1000)
for i = 5, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', key, 'queue_order', order)
redis.call('ZADD', prefix .. 'status:queued', order, id)
redis.call('ZADD', prefix .. 'expiry', ARGV[4], id)
return 1
`;

/**
 * ARGV: prefix, id, now, maxAttempts, starting progress, 'any' or 'queued' (take only a queued job).
 * A running job out of attempts is left for the caller to fail, with its count in the message.
 */
export const CLAIM = `
local prefix, id, now, max = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = prefix .. 'job:' .. id
local status = redis.call('HGET', key, 'status')
if not status then return {'skipped', 'missing'} end
if status ~= 'queued' and (status ~= 'running' or ARGV[6] == 'queued') then return {'skipped', status} end
local attempts = tonumber(redis.call('HGET', key, 'attempts'))
if status == 'running' and attempts >= max then return {'lost', tostring(attempts)} end
local created = redis.call('HGET', key, 'queue_order')
redis.call('ZREM', prefix .. 'status:' .. status, id)
redis.call('ZADD', prefix .. 'status:running', created, id)
redis.call('HSET', key, 'status', 'running', 'started_at', now, 'attempts', attempts + 1,
  'progress_json', ARGV[5])
return {'claimed', tostring(attempts + 1)}
`;

/** ARGV: prefix, id, 'requeue' (a stop: the attempt is not counted) or 'recover' (counted), fence. */
export const REQUEUE = `${MOVE_STATUS}${HELD}
local prefix, id = ARGV[1], ARGV[2]
local key = prefix .. 'job:' .. id
if not held(key, ARGV[4]) then return 0 end
move_status(prefix, id, 'running', 'queued', redis.call('HGET', key, 'queue_order'))
redis.call('HSET', key, 'status', 'queued')
redis.call('HDEL', key, 'started_at', 'progress_json')
if ARGV[3] == 'requeue' then
  local attempts = tonumber(redis.call('HGET', key, 'attempts'))
  redis.call('HSET', key, 'attempts', math.max(attempts - 1, 0))
end
return 1
`;
