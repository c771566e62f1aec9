// The template reader's entry: the compile cache goes on before the composition loader loads, then
// template-declarations-process.ts answers the request the server sent.
import { startForkedChild } from '../launcher/compile-cache.mjs';

await startForkedChild(() => import('./template-declarations-process.ts'));
