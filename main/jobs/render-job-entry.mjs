// The render job process's entry: the compile cache goes on before its modules load (the engine,
// encoder, review, authoring and storage: about 0.3 s of stripping and compiling TypeScript on every
// render without it), then render-job-process.ts runs with the job the server sent.
import { startForkedChild } from '../launcher/compile-cache.mjs';

await startForkedChild(() => import('./render-job-process.ts'));
