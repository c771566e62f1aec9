// Node's module compile cache for Kino's processes. Node strips the types of each `.ts` module and
// compiles it on every start; with the cache on, the stripped source and V8's code cache of every
// module (Kino's and its packages') are kept on disk and reused while the file is unchanged, which
// roughly halves the time `kino` takes to load its modules. Plain JavaScript: it runs before them.
import { homedir } from 'node:os';
import { join } from 'node:path';
import module from 'node:module';

/** KINO_CACHE_DIR/compile, else $XDG_CACHE_HOME/kino/compile, else ~/.cache/kino/compile. */
export function compileCacheDir(env = process.env) {
  if (env.KINO_CACHE_DIR) return join(env.KINO_CACHE_DIR, 'compile');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'compile');
}

/**
 * Turns the cache on for this process (Node >= 22.1). NODE_COMPILE_CACHE, when set, wins (Node has
 * then already turned it on there); NODE_DISABLE_COMPILE_CACHE=1 turns it off. A cache that cannot
 * be written is no error: modules are then compiled as usual.
 */
export function enableCompileCache(env = process.env) {
  if (typeof module.enableCompileCache !== 'function') return undefined;
  try {
    return module.enableCompileCache(compileCacheDir(env));
  } catch {
    return undefined;
  }
}

/**
 * Starts a forked child's TypeScript module with the cache on. Its parent sends the first message at
 * once: one that arrives while the modules load is held, then handed to the module; the parent going
 * away meanwhile ends the child (nothing has started yet).
 */
export async function startForkedChild(load, env = process.env) {
  const leave = () => process.exit(0);
  process.once('disconnect', leave);
  const early = [];
  const hold = (message) => early.push(message);
  process.on('message', hold);
  enableCompileCache(env);
  await load();
  process.off('message', hold);
  process.off('disconnect', leave);
  for (const message of early) process.emit('message', message);
}
