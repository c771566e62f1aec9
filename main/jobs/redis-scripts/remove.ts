// Lua: an expired job removed with everything that indexes it (its status, expiry and webhook
// entries, its delivery), its id kept as removed: one step, so no index is left pointing at nothing.
import { JOB_STATUSES } from '../job-store.ts';

/** ARGV: prefix, id, now. */
export const REMOVE = `
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
redis.call('DEL', prefix .. 'job:' .. id, prefix .. 'webhook:' .. id)
for _, status in ipairs({${JOB_STATUSES.map((status) => `'${status}'`).join(', ')}}) do
  redis.call('ZREM', prefix .. 'status:' .. status, id)
end
redis.call('ZREM', prefix .. 'expiry', id)
redis.call('ZREM', prefix .. 'webhooks:due', id)
redis.call('SREM', prefix .. 'webhooks:ended', id)
redis.call('ZADD', prefix .. 'removed', now, id)
return 1
`;
