// The smallest program of a CPU architecture: a static Linux executable that only exits with 0.
// The builder has its engine run it to learn whether the engine's host runs that architecture's
// programs (natively or through QEMU user emulation) before building a fleet's images for it.

type Machine = { bits: 32 | 64; machine: number; flags: number; base: number; code: number[] };

const words = (...values: number[]): number[] =>
  values.flatMap((value) => [
    value & 0xff,
    (value >>> 8) & 0xff,
    (value >>> 16) & 0xff,
    value >>> 24,
  ]);

// By the Engine API's architecture names.
const machines: Record<string, Machine> = {
  // mov x0, #0; mov x8, #93 (exit); svc #0
  arm64: {
    bits: 64,
    machine: 183,
    flags: 0,
    base: 0x400000,
    code: words(0xd2800000, 0xd2800ba8, 0xd4000001),
  },
  // mov r0, #0; mov r7, #1 (exit); svc #0 — EABI version 5, as every ARM Linux userland.
  arm: {
    bits: 32,
    machine: 40,
    flags: 0x05000000,
    base: 0x10000,
    code: words(0xe3a00000, 0xe3a07001, 0xef000000),
  },
  // xor edi, edi; mov eax, 60 (exit); syscall
  amd64: {
    bits: 64,
    machine: 62,
    flags: 0,
    base: 0x400000,
    code: [0x31, 0xff, 0xb8, 0x3c, 0, 0, 0, 0x0f, 0x05],
  },
  // xor ebx, ebx; mov eax, 1 (exit); int 0x80
  '386': {
    bits: 32,
    machine: 3,
    flags: 0,
    base: 0x8048000,
    code: [0x31, 0xdb, 0xb8, 1, 0, 0, 0, 0xcd, 0x80],
  },
};

// An ELF header, one loadable segment (the whole file, readable and executable) and the code.
const elf = ({ bits, machine, flags, base, code }: Machine): Buffer => {
  const wide = bits === 64;
  const headerSize = wide ? 64 : 52;
  const segmentSize = wide ? 56 : 32;
  const codeAt = headerSize + segmentSize;
  const size = codeAt + code.length;
  const file = Buffer.alloc(size);
  file.write('\x7fELF', 0, 'latin1');
  file.writeUInt8(wide ? 2 : 1, 4); // class
  file.writeUInt8(1, 5); // little-endian
  file.writeUInt8(1, 6); // ELF version
  file.writeUInt16LE(2, 16); // an executable
  file.writeUInt16LE(machine, 18);
  file.writeUInt32LE(1, 20);
  if (wide) {
    file.writeBigUInt64LE(BigInt(base + codeAt), 24); // entry
    file.writeBigUInt64LE(BigInt(headerSize), 32); // program headers
    file.writeUInt32LE(flags, 48);
    file.writeUInt16LE(headerSize, 52);
    file.writeUInt16LE(segmentSize, 54);
    file.writeUInt16LE(1, 56);
    const at = headerSize;
    file.writeUInt32LE(1, at); // PT_LOAD
    file.writeUInt32LE(5, at + 4); // read, execute
    file.writeBigUInt64LE(0n, at + 8);
    file.writeBigUInt64LE(BigInt(base), at + 16);
    file.writeBigUInt64LE(BigInt(base), at + 24);
    file.writeBigUInt64LE(BigInt(size), at + 32);
    file.writeBigUInt64LE(BigInt(size), at + 40);
    file.writeBigUInt64LE(0x1000n, at + 48);
  } else {
    file.writeUInt32LE(base + codeAt, 24);
    file.writeUInt32LE(headerSize, 28);
    file.writeUInt32LE(flags, 36);
    file.writeUInt16LE(headerSize, 40);
    file.writeUInt16LE(segmentSize, 42);
    file.writeUInt16LE(1, 44);
    const at = headerSize;
    file.writeUInt32LE(1, at); // PT_LOAD
    file.writeUInt32LE(0, at + 4);
    file.writeUInt32LE(base, at + 8);
    file.writeUInt32LE(base, at + 12);
    file.writeUInt32LE(size, at + 16);
    file.writeUInt32LE(size, at + 20);
    file.writeUInt32LE(5, at + 24); // read, execute
    file.writeUInt32LE(0x1000, at + 28);
  }
  Buffer.from(code).copy(file, codeAt);
  return file;
};

// The program for a platform such as linux/arm/v7; undefined for an architecture it has none for.
export const probeProgram = (platform: string): Buffer | undefined => {
  const arch = platform.split('/')[1];
  const machine = arch === undefined ? undefined : machines[arch];
  return machine === undefined ? undefined : elf(machine);
};
