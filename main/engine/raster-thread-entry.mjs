// A rasterising thread's entry: Node's compile cache is per thread, so a thread turns it on for itself
// before loading the engine (about 0.1 s less to start), then runs raster-thread.ts.
import { enableCompileCache } from '../launcher/compile-cache.mjs';

enableCompileCache();
await import('./raster-thread.ts');
