// The generated secrets of a deployment on Redis (QUEUE_BACKEND=redis): made once by the first
// process and read by every other, so API instances on several machines sign links and webhooks
// alike and accept one API token. A secret set in the environment is used instead, and never stored.
import { randomToken } from '../storage/secrets.ts';
import type { StoredSecret } from '../storage/secrets.ts';
import { closeConnection, queueConnection } from '../jobs/render-queue.ts';
import type { QueueSettings } from '../jobs/render-queue.ts';

export interface SecretSource {
  get(name: string, generate?: () => string): Promise<StoredSecret>;
  close(): Promise<void>;
}

export function redisSecrets(queue: QueueSettings): SecretSource {
  const redis = queueConnection(queue.redisUrl, undefined, { failFast: true });
  const key = `${queue.prefix}:secrets`;
  return {
    async get(name, generate = () => randomToken()) {
      const value = generate();
      // HSETNX: the first process's value wins; everyone else reads it back.
      const created = (await redis.hsetnx(key, name, value)) === 1;
      return { value: created ? value : (await redis.hget(key, name))!, created };
    },
    async close() {
      await closeConnection(redis);
    },
  };
}
