// The scalar and list forms a compose file writes its values in, read tolerantly: a value of
// another form is undefined, and the field is left out (composition-fields.ts).

type Raw = Record<string, unknown>;

export const isRecord = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

export const flag = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined;

export const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

// A compose command: a list as it is, or a string split into words as compose does (quotes
// group, no shell runs it).
export const words = (value: unknown): string[] | undefined => {
  if (Array.isArray(value)) {
    return value.every((item) => typeof item === 'string') ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const found = value.match(/"[^"]*"|'[^']*'|[^\s"']+/g) ?? [];
  return found.map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
};

// A scalar compose writes either as text or as a number.
export const scalarText = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;

// `KEY=value` lines or a map (sysctls, driver options): a map either way.
export const keyValues = (value: unknown): Record<string, string> | undefined => {
  if (isRecord(value)) {
    const entries = Object.entries(value).flatMap(([key, item]) => {
      const found = scalarText(item);
      return found === undefined ? [] : [[key, found] as const];
    });
    return Object.fromEntries(entries);
  }
  const lines = stringList(value);
  if (!lines) return undefined;
  return Object.fromEntries(
    lines.flatMap((line) => {
      const at = line.indexOf('=');
      return at <= 0 ? [] : [[line.slice(0, at), line.slice(at + 1)] as const];
    }),
  );
};

// One path or several (tmpfs).
export const oneOrMore = (value: unknown): string[] | undefined =>
  typeof value === 'string' ? [value] : stringList(value);

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

// Compose's durations ("1m30s", "10s", "500ms", "1.5s") in milliseconds; a bare number is seconds.
export const durationMs = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value >= 0 ? value * 1000 : undefined;
  if (typeof value !== 'string' || value === '') return undefined;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  if (parts.map((part) => part[0]).join('') !== value) return undefined;
  return Math.round(
    parts.reduce(
      (sum, [, amount = '0', unit = 's']) => sum + Number(amount) * (durationUnits[unit] ?? 0),
      0,
    ),
  );
};

const byteUnits: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

// Compose's byte sizes ("64m", "1gb", "512k", 67108864) in bytes.
export const byteSize = (value: unknown): number | undefined => {
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(value.trim());
  if (!match) return undefined;
  const [, amount = '0', unit = ''] = match;
  return Math.round(Number(amount) * (byteUnits[unit.toLowerCase()] ?? 1));
};
