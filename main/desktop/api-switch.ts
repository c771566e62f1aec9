// Keeps the embedded render API in line with the settings: started when enabled (or asked for with
// --api-port), restarted on a new port, stopped when disabled. Changes apply one at a time.
import type { StudioSettings } from '../../shared/studio/bridge.ts';
import type { EmbeddedApi } from '../studio/embedded-api.ts';

export type StartApi = (port: number) => Promise<EmbeddedApi>;

export class ApiSwitch {
  readonly #start: StartApi;
  /** --api-port: runs the API on this port for this run, whatever the settings say. */
  readonly #portOverride: number | undefined;
  #running: EmbeddedApi | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(start: StartApi, portOverride?: number) {
    this.#start = start;
    this.#portOverride = portOverride;
  }

  get running(): EmbeddedApi | undefined {
    return this.#running;
  }

  apply(settings: Pick<StudioSettings, 'apiEnabled' | 'apiPort'>): Promise<void> {
    const wanted = this.#portOverride ?? (settings.apiEnabled ? settings.apiPort : undefined);
    return this.#enqueue(async () => {
      if (this.#running && this.#running.port === wanted) return;
      await this.#stop();
      if (wanted !== undefined) this.#running = await this.#start(wanted);
    });
  }

  close(): Promise<void> {
    return this.#enqueue(() => this.#stop());
  }

  async #stop(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    await running?.close();
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(step);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
