// The few pieces of Protocol Buffers' wire format the builder speaks with BuildKit (the secrets
// it serves, the progress it reads): fields as they come, varints and length-delimited bytes.

export type WireField =
  | { number: number; kind: 'varint'; value: bigint }
  | { number: number; kind: 'bytes'; value: Buffer }
  // 32- and 64-bit fixed values: skipped, none of the messages read uses them.
  | { number: number; kind: 'fixed' };

const readVarint = (data: Buffer, at: number): { value: bigint; next: number } => {
  let value = 0n;
  let shift = 0n;
  for (let index = at; index < data.length && shift < 70n; index++) {
    const byte = data[index] ?? 0;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: index + 1 };
    shift += 7n;
  }
  throw new Error('a protobuf varint runs past its message');
};

export const wireFields = (data: Buffer): WireField[] => {
  const fields: WireField[] = [];
  let at = 0;
  while (at < data.length) {
    const key = readVarint(data, at);
    const number = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    at = key.next;
    if (wireType === 0) {
      const varint = readVarint(data, at);
      fields.push({ number, kind: 'varint', value: varint.value });
      at = varint.next;
    } else if (wireType === 2) {
      const length = readVarint(data, at);
      const end = length.next + Number(length.value);
      if (end > data.length) throw new Error('a protobuf field runs past its message');
      fields.push({ number, kind: 'bytes', value: data.subarray(length.next, end) });
      at = end;
    } else if (wireType === 1 || wireType === 5) {
      fields.push({ number, kind: 'fixed' });
      at += wireType === 1 ? 8 : 4;
    } else {
      throw new Error(`protobuf wire type ${wireType} is not read here`);
    }
  }
  return fields;
};

const varint = (value: number): Buffer => {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
};

export const bytesField = (number: number, value: Buffer): Buffer =>
  Buffer.concat([varint((number << 3) | 2), varint(value.length), value]);

export const varintField = (number: number, value: number): Buffer =>
  Buffer.concat([varint(number << 3), varint(value)]);

// The first length-delimited field of that number, as text.
export const textOf = (fields: readonly WireField[], number: number): string | undefined => {
  const field = fields.find((candidate) => candidate.number === number);
  return field?.kind === 'bytes' ? field.value.toString('utf8') : undefined;
};
