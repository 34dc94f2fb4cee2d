import { Transform, type TransformCallback } from 'node:stream';

// CRC-32 (IEEE, reflected 0xEDB88320) as gzip's trailer needs it.
const crcTable = new Uint32Array(256).map((_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

export const crc32 = (data: Uint8Array, previous = 0): number => {
  let crc = ~previous >>> 0;
  for (const byte of data) crc = (crcTable[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return ~crc >>> 0;
};

// A gzip header: deflate, no flags, no time, unknown OS.
const header = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
const maxBlock = 0xffff;

const storedBlock = (data: Buffer, final: boolean): Buffer => {
  const head = Buffer.alloc(5);
  head[0] = final ? 1 : 0;
  head.writeUInt16LE(data.length, 1);
  head.writeUInt16LE(~data.length & 0xffff, 3);
  return Buffer.concat([head, data]);
};

// Valid gzip made of uncompressed ("stored") deflate blocks, without zlib. A simulator holds
// thousands of log streams, and Node's zlib costs ~75 kB of native memory per stream whatever
// its settings; log lines on a simulator's loopback do not need compressing. flush() sends
// what is pending as one block, like Z_SYNC_FLUSH.
export class StoredGzip extends Transform {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #crc = 0;
  #size = 0;
  #started = false;

  override _transform(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    done: TransformCallback,
  ): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.#crc = crc32(data, this.#crc);
    this.#size = (this.#size + data.length) >>> 0;
    this.#pending.push(data);
    this.#pendingBytes += data.length;
    if (this.#pendingBytes >= maxBlock) this.flush();
    done();
  }

  override _flush(done: TransformCallback): void {
    this.flush();
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(this.#crc, 0);
    trailer.writeUInt32LE(this.#size, 4);
    this.push(Buffer.concat([storedBlock(Buffer.alloc(0), true), trailer]));
    done();
  }

  flush(): void {
    if (!this.#started) {
      this.#started = true;
      this.push(header);
    }
    if (this.#pendingBytes === 0) return;
    const data = Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    for (let offset = 0; offset < data.length; offset += maxBlock) {
      this.push(storedBlock(data.subarray(offset, offset + maxBlock), false));
    }
  }
}
