// The render job process's entry: the compile cache goes on before its modules load (the engine,
// encoder, review, authoring and storage: about 0.3 s of stripping and compiling TypeScript on every
// render without it), then render-job-process.ts runs. The server sends the job at once: a message
// that arrives while the modules load is held, then handed to the job.
import { enableCompileCache } from '../launcher/compile-cache.mjs';

// The server going away while the modules load ends the process (nothing has started yet).
const leave = () => process.exit(0);
process.once('disconnect', leave);
const early = [];
const hold = (message) => early.push(message);
process.on('message', hold);
enableCompileCache();
await import('./render-job-process.ts');
process.off('message', hold);
process.off('disconnect', leave);
for (const message of early) process.emit('message', message);
