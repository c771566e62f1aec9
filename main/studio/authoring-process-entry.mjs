// The authoring child's entry: the compile cache goes on before the authoring code loads (about a
// second less before the first provider call), and the parent's one message is taken at once, so
// it cannot arrive while nothing listens.
import { enableCompileCache } from '../launcher/compile-cache.mjs';

// The parent kills this process when it is canceled; leaving when the channel closes covers a
// parent that went away first.
process.once('disconnect', () => process.exit(0));
const assignment = new Promise((resolve) => process.once('message', resolve));
enableCompileCache();
const { serveAssignment } = await import('./authoring-process.ts');
await serveAssignment(await assignment);
