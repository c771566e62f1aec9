import type { DrawEnv } from './types.ts';

/**
 * A value made once per drawing host and dropped with it: scratch canvases, grain tiles and parsed
 * paths are costly to make every frame and belong to the host whose canvases they use.
 */
export function perHost<T>(create: (env: DrawEnv) => T): (env: DrawEnv) => T {
  const values = new WeakMap<DrawEnv, T>();
  return (env) => {
    let value = values.get(env);
    if (value === undefined) {
      value = create(env);
      values.set(env, value);
    }
    return value;
  };
}
