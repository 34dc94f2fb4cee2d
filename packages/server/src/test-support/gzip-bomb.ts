import { constants, deflateRawSync } from 'node:zlib';

const mebibyte = 1024 * 1024;

// One ustar header block for a file of `size` bytes (a valid checksum, so the tar parser reads it).
const tarHeader = (name: string, size: number): Buffer => {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return header;
};

// A gzip of `mebibytes` one-MiB files of zeros (a tar that would inflate to that size), built
// without inflating it: every member is deflated once, flushed so that it stands alone, and
// repeated. Its trailer's checksum is not computed (a reader refused at its limit never gets
// there), so it is a bomb only for readers that stop early, as the builder must.
export const gzipBomb = (mebibytes: number): Buffer => {
  const member = Buffer.concat([tarHeader('zeros.bin', mebibyte), Buffer.alloc(mebibyte)]);
  const block = deflateRawSync(member, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  const last = Buffer.from([0x03, 0x00]);
  const trailer = Buffer.alloc(8);
  return Buffer.concat([header, ...Array.from({ length: mebibytes }, () => block), last, trailer]);
};
