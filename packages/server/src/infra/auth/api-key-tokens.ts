import { createHash, randomBytes } from 'node:crypto';

// Opaque API keys: 32 random bytes written in base62 (no dots, so the SDK never mistakes one for
// a JWT). Only the SHA-256 of a key is stored, plus a short prefix so people can recognise a key.
const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const keyBytes = 32;
// 62^43 > 2^256, so every 32-byte value fits in 43 characters.
const keyLength = 43;
const prefixLength = 8;

export const toBase62 = (bytes: Uint8Array, length: number): string => {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(length, '0');
};

export const generateApiKey = (): string => toBase62(randomBytes(keyBytes), keyLength);

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const apiKeyPrefix = (key: string): string => key.slice(0, prefixLength);

// Keys we accept from clients (e.g. a supervisor's key exchange): printable, bounded, no dots.
export const isAcceptableApiKey = (key: string): boolean => /^[A-Za-z0-9_-]{16,128}$/.test(key);
