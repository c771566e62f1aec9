// The look child's entry: the compile cache goes on before the drawing engine loads (about 0.3 s of
// stripping and compiling TypeScript on every look without it), then look-process.ts answers the
// request the MCP server sent.
import { startForkedChild } from '../launcher/compile-cache.mjs';

await startForkedChild(() => import('./look-process.ts'));
