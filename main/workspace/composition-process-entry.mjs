// The workspace worker's entry: the compile cache goes on before the worker's modules load (the
// engine, media, review and render: about half a second of stripping and compiling TypeScript on
// every worker start without it), then composition-process.ts runs with the server's first message.
import { startForkedChild } from '../launcher/compile-cache.mjs';

await startForkedChild(() => import('./composition-process.ts'));
