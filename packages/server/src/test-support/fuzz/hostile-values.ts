import type { Random } from './prng.js';

// Values that have broken servers before: encodings, bounds, injection, types.
const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  "' OR 1=1 --",
  '"; DROP TABLE "device"; --',
  '../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%',
  '%%',
  '\\',
  '\\u0000',
  '😀',
  '\u202e',
  '\uffff',
  '\ud800',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '-99999999999999999999',
  '2147483648',
  '9223372036854775808',
  '1.5',
  '0x10',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  "'",
  '(',
  ')',
  '$filter',
  "datetime'2020-01-01'",
  'raspberrypi4-64',
  'admin@flotilla.local',
];

const hostileNumbers: readonly number[] = [
  0, -1, 1, 2_147_483_647, 2_147_483_648, -2_147_483_649, 9_007_199_254_740_991,
  9_007_199_254_740_992, 1e20, -1e20, 1.5, -0.5, 1e308, 5e-324,
];

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@ ';

export const randomWord = (random: Random, max = 12): string =>
  Array.from({ length: random.int(1, max) }, () => random.pick([...alphabet])).join('');

// Sometimes far over every documented limit (names 255, text 100,000, body 1 MiB).
export const longString = (random: Random): string =>
  random
    .pick(['x', 'é', '😀', 'ab\u0000'])
    .repeat(random.pick([256, 1_000, 10_000, 100_001, 300_000]));

export const hostileString = (random: Random): string => {
  const roll = random.next();
  if (roll < 0.6) return random.pick(hostileStrings);
  if (roll < 0.9) return randomWord(random, 40);
  return longString(random);
};

export const hostileNumber = (random: Random): number => random.pick(hostileNumbers);

// Any JSON value, nested up to `depth` levels; keys come from `keys` (field names the routes
// read) or are random.
export const hostileJson = (random: Random, keys: readonly string[], depth = 3): unknown => {
  const roll = random.next();
  if (roll < 0.3) return hostileString(random);
  if (roll < 0.5) return hostileNumber(random);
  if (roll < 0.55) return random.chance(0.5);
  if (roll < 0.6) return null;
  if (depth <= 0) return hostileString(random);
  if (roll < 0.75) {
    return Array.from({ length: random.int(0, 4) }, () => hostileJson(random, keys, depth - 1));
  }
  return hostileObject(random, keys, depth - 1);
};

export const hostileObject = (
  random: Random,
  keys: readonly string[],
  depth = 2,
): Record<string, unknown> => {
  const object: Record<string, unknown> = {};
  for (let i = random.int(0, 6); i > 0; i--) {
    const key = random.chance(0.8) && keys.length > 0 ? random.pick(keys) : hostileString(random);
    object[key.slice(0, 300)] = hostileJson(random, keys, depth);
  }
  return object;
};

// Arrays nested far deeper than any request needs.
export const deeplyNested = (random: Random): string => {
  const depth = random.pick([100, 1_000, 100_000]);
  const inner = random.chance(0.5) ? '"\\u0000"' : '1';
  return `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
};

// Percent-encodes for a URL; unpaired surrogates (which encodeURIComponent refuses) go raw-escaped.
export const urlEncode = (value: string): string => {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((char) => (/[\ud800-\udfff]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char)))
      .join('');
  }
};

// Raw percent sequences a client can put in a URL that decode badly.
export const rawUrlJunk: readonly string[] = [
  '%00',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%',
  '%25',
  '%2e%2e%2f',
];
