import { createHash } from 'node:crypto';

// Stable JSON (sorted keys, undefined fields left out) so equal configurations hash equally.
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .filter((key) => Reflect.get(value, key) !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(Reflect.get(value, key))}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

// The hash the engine's objects carry in their labels: equal means unchanged.
export const configHash = (value: unknown): string =>
  createHash('sha256').update(canonical(value)).digest('hex').slice(0, 32);
