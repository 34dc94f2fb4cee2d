import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify<string, Buffer, number, { N: number }, Buffer>(scrypt);

// Letters and digits without look-alikes (no i, l, o, 0, 1).
export const recoveryCodeAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

// A uniform whole number in [0, max): crypto.randomInt, which draws by rejection, so every letter
// of the alphabet is as likely as the others (a byte modulo 31 favoured the first eight).
export type RandomIndex = (max: number) => number;

// Ten letters and digits in two groups ("k3m9x-q7v2p"), about 50 bits.
export const newRecoveryCode = (randomIndex: RandomIndex = randomInt): string => {
  const letters = Array.from(
    { length: 10 },
    () => recoveryCodeAlphabet[randomIndex(recoveryCodeAlphabet.length)] ?? '',
  ).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
};

// Normalized as typed codes are compared: no dash, lower case.
export const recoveryCodeStoredForm = (code: string): string => code.replace('-', '');

// scrypt with its own random salt per code: a stolen table cannot be searched for all codes (or
// all users) at once, and each guess costs memory. The codes are random (about 50 bits), so a
// modest cost is enough and a login that compares ten of them stays quick. The cost is written
// into the hash, so it can be raised later without making stored codes unusable.
const cost = 2 ** 12;
const keyLength = 32;

export const hashRecoveryCode = async (normalizedCode: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await scryptAsync(normalizedCode, salt, keyLength, { N: cost });
  return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
};

// Whether the code is the one a stored hash was made of, compared in constant time. Codes made
// before salting are a bare SHA-256 (hex) and still count until the user makes new ones.
export const recoveryCodeMatches = async (
  normalizedCode: string,
  stored: string,
): Promise<boolean> => {
  const [scheme, costText, saltText, keyText, extra] = stored.split('$');
  if (scheme !== 'scrypt') {
    if (!/^[0-9a-f]{64}$/.test(stored)) return false;
    const digest = createHash('sha256').update(normalizedCode).digest();
    return timingSafeEqual(digest, Buffer.from(stored, 'hex'));
  }
  const storedCost = Number(costText);
  if (extra !== undefined || saltText === undefined || keyText === undefined) return false;
  if (!Number.isInteger(storedCost) || storedCost < 2 || storedCost > 2 ** 20) return false;
  const expected = Buffer.from(keyText, 'base64');
  if (expected.length !== keyLength) return false;
  const key = await scryptAsync(normalizedCode, Buffer.from(saltText, 'base64'), keyLength, {
    N: storedCost,
  });
  return timingSafeEqual(key, expected);
};
