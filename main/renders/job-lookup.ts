// Finding a render for a request: unknown ids are 404; removed renders, and ended ones past their
// expiry, are 410. A render still queued or running has not expired (its ttl restarts when it ends).
import { TERMINAL_STATUSES } from '../jobs/job-store.ts';
import type { RenderJob } from '../jobs/job-store.ts';
import type { ApiContext } from './context.ts';
import { Problem } from '../http/problem.ts';
import { shownPathValue } from '../http/redact-url.ts';

export async function findLiveJob(ctx: ApiContext, id: string): Promise<RenderJob> {
  const lookup = await ctx.store.lookup(id);
  // The id comes from the path, where a misplaced download token may sit.
  if (!lookup) throw new Problem(404, 'not_found', `no render with id ${shownPathValue(id)}`);
  const expired =
    'removed' in lookup ||
    (TERMINAL_STATUSES.includes(lookup.found.status) && lookup.found.expiresAt <= ctx.now());
  if (expired) throw new Problem(410, 'expired', `render ${id} has expired and its files are deleted`);
  return lookup.found;
}
