// Lua: a job's end (succeeded, failed, canceled). Ending it also marks its webhook's delivery to be
// made (see `ended` in lua-functions.ts), in the same step, so no ended job's event is lost.
import { HELD, MOVE_STATUS } from './lua-functions.ts';

/** ARGV: prefix, id, now, fence, then field/value pairs (an empty value deletes the field). */
export const SUCCEED = `${MOVE_STATUS}${HELD}
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
local key = prefix .. 'job:' .. id
if not held(key, ARGV[4]) then return 0 end
ended(prefix, key, id, 'succeeded', now)
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', key, ARGV[i]) else redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
end
redis.call('HDEL', key, 'error_json')
local progress = redis.call('HGET', key, 'progress_json')
local decoded
if progress then decoded = cjson.decode(progress) else
  decoded = {stage = 'storing', framesDone = 0, framesTotal = 0}
end
decoded.percent = 100
decoded.etaSeconds = 0
redis.call('HSET', key, 'progress_json', cjson.encode(decoded))
return 1
`;

/**
 * ARGV: prefix, id, now, 'failed' or 'canceled', error JSON, spec JSON or '', code or '', fence.
 * Ends a queued or running job (with a fence, only one running under it); a job that already
 * ended is left as it is (0).
 */
export const END = `${MOVE_STATUS}${HELD}
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
local key = prefix .. 'job:' .. id
local status = redis.call('HGET', key, 'status')
if status ~= 'queued' and status ~= 'running' then return 0 end
if ARGV[8] ~= '' and not held(key, ARGV[8]) then return 0 end
ended(prefix, key, id, ARGV[4], now)
redis.call('HSET', key, 'error_json', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', key, 'spec_json', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', key, 'code', ARGV[7]) end
return 1
`;
