// Stopping a long-running process (the API, a worker) gracefully on SIGTERM, SIGINT or SIGHUP.

/** Signals that stop the process gracefully. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/**
 * A Ctrl+C reaches the whole process group, so the process can hear one press twice (directly and
 * through the Node launcher): repeats this soon after the first are the same request.
 */
const REPEAT_WINDOW_MS = 2000;

/**
 * Resolves on the first stop signal. The handlers stay installed for the rest of the shutdown, so a
 * repeat never kills the process mid-stop; a later one (a second, deliberate Ctrl+C) forces the
 * exit, after printing `forcedMessage`.
 */
export function firstStopSignal(forcedMessage: string): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (first === undefined) {
        first = Date.now();
        resolve(signal);
      } else if (Date.now() - first > REPEAT_WINDOW_MS) {
        process.stderr.write(`${forcedMessage}\n`);
        process.exit(130);
      }
    };
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  });
}
