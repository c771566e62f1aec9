// Where a loop that draws frame after frame lets a cancel in. Drawing awaits no I/O, and while
// ffmpeg keeps up a frame's pipe write completes at once, so such a loop never lets the event loop
// turn: a cancel arriving as an event (an IPC message, a client that went away, a timer) and the
// progress messages sent meanwhile would wait for the loop's end. One turn costs microseconds.
import { setImmediate as nextEventLoopTurn } from 'node:timers/promises';

/** Lets the event loop turn once, then throws the signal's reason if it was aborted meanwhile. */
export async function cancellationPoint(signal: AbortSignal | undefined): Promise<void> {
  await nextEventLoopTurn();
  signal?.throwIfAborted();
}
