// Copies what authors pass to the builders into plain model data: fresh arrays and objects, no
// undefined fields (the JSON spec has none), functions (custom draw) kept as they are.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function plainData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => plainData(item)) as T;
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined) copy[key] = plainData(field);
    }
    return copy as T;
  }
  return value;
}

/** Freezes model data all the way down so element values cannot change under their users. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}
