// `{ ...defaults, ...options }` lets an explicit `undefined` erase a default; this does not.
export const withDefaults = <T extends object>(defaults: Required<T>, options: T): Required<T> => {
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  return merged as Required<T>;
};
