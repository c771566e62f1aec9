// Lua: the writes of a running job (its progress, resolved spec, authoring, review), each made only
// while the job still runs under the writer's fence, checked and written in one step.
import { HELD } from './lua-functions.ts';

/** ARGV: prefix, id, fence, then field/value pairs: set only while the job runs (under the fence). */
export const SET_IF_RUNNING = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if not held(key, ARGV[3]) then return 0 end
for i = 4, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
return 1
`;

/**
 * ARGV: prefix, id, fence, then field/value pairs (an empty value deletes the field): set while
 * the job exists, or with a fence only while it runs under it.
 */
export const SET_IF_EXISTS = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
if ARGV[3] ~= '' and not held(key, ARGV[3]) then return 0 end
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', key, ARGV[i]) else redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
end
return 1
`;

/**
 * ARGV: prefix, id, progress JSON computed by the caller from the one it read (ARGV[4]), fence.
 * 1: written; 0: the job no longer runs (under the fence); -1: another chunk wrote meanwhile (read again).
 */
export const SET_PROGRESS_IF_UNCHANGED = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if not held(key, ARGV[5]) then return 0 end
local current = redis.call('HGET', key, 'progress_json') or ''
if current ~= ARGV[4] then return -1 end
redis.call('HSET', key, 'progress_json', ARGV[3])
return 1
`;
