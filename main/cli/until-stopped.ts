// Long-running commands (preview, studio) run until the first Ctrl+C or SIGTERM; a second one falls
// through to Node's default exit.
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
