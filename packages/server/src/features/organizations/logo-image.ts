import { logoMaxBytes } from '@flotilla/shared/constants/limits';
import { badRequest } from '../../infra/errors/api-error.js';

export type LogoType = 'image/png' | 'image/jpeg';

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const jpegSignature = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: readonly number[]): boolean =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

// What an uploaded logo is, judged by its content (never by its name or the declared type):
// png or jpeg of at most 1,000,000 bytes.
export const logoTypeOf = (bytes: Uint8Array): LogoType => {
  if (bytes.length === 0) throw badRequest('The logo is empty');
  if (bytes.length > logoMaxBytes) {
    throw badRequest(`The logo must be at most ${logoMaxBytes.toLocaleString('en-US')} bytes`);
  }
  if (startsWith(bytes, pngSignature)) return 'image/png';
  if (startsWith(bytes, jpegSignature)) return 'image/jpeg';
  throw badRequest('The logo must be a PNG or JPEG image');
};
