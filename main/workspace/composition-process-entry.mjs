// The workspace worker's entry: the compile cache goes on before the worker's modules load (the
// engine, media, review and render: about half a second of stripping and compiling TypeScript on
// every worker start without it), then composition-process.ts runs. The server sends its first
// message at once: one that arrives while the modules load is held, then handed to the worker.
import { enableCompileCache } from '../launcher/compile-cache.mjs';

// The server going away while the modules load ends the worker too.
process.once('disconnect', () => process.exit(0));
const early = [];
const hold = (message) => early.push(message);
process.on('message', hold);
enableCompileCache();
await import('./composition-process.ts');
process.off('message', hold);
for (const message of early) process.emit('message', message);
