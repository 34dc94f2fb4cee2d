// IP addresses and CIDR networks, for rules the server and the console both apply (the console
// cannot use Node's net module). IPv4 addresses written as IPv6 (::ffff:10.0.0.1) are the IPv4
// address they are.
export type IpAddress = { kind: 'ipv4' | 'ipv6'; value: bigint };

export type IpNetwork = IpAddress & { bits: number };

const parseIpv4 = (text: string): bigint | undefined => {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
};

const hexGroups = (text: string): bigint[] | undefined => {
  if (text === '') return [];
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    const last = index === parts.length - 1;
    if (last && part.includes('.')) {
      const ipv4 = parseIpv4(part);
      if (ipv4 === undefined) return undefined;
      groups.push(ipv4 >> 16n, ipv4 & 0xffffn);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(BigInt(`0x${part}`));
    } else {
      return undefined;
    }
  }
  return groups;
};

const parseIpv6 = (text: string): bigint | undefined => {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = hexGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? hexGroups(halves[1] ?? '') : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array.from({ length: missing }, () => 0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
};

const mappedPrefix = 0xffffn << 32n;

// An IPv4 or IPv6 address (IPv6 in brackets too, as URLs write it), or undefined.
export const parseIpAddress = (text: string): IpAddress | undefined => {
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = parseIpv4(bare);
  if (ipv4 !== undefined) return { kind: 'ipv4', value: ipv4 };
  const ipv6 = parseIpv6(bare);
  if (ipv6 === undefined) return undefined;
  if (ipv6 >> 32n === mappedPrefix >> 32n) return { kind: 'ipv4', value: ipv6 & 0xffffffffn };
  return { kind: 'ipv6', value: ipv6 };
};

const widthOf = (kind: IpAddress['kind']): number => (kind === 'ipv4' ? 32 : 128);

// An address (a network of that one address) or a CIDR range (10.0.0.0/8, fc00::/7).
export const parseIpNetwork = (text: string): IpNetwork | undefined => {
  const [address, bits, extra] = text.trim().split('/');
  if (address === undefined || extra !== undefined) return undefined;
  const parsed = parseIpAddress(address);
  if (parsed === undefined) return undefined;
  const width = widthOf(parsed.kind);
  if (bits === undefined) return { ...parsed, bits: width };
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > width) return undefined;
  return { ...parsed, bits: Number(bits) };
};

export const inNetwork = (address: IpAddress, network: IpNetwork): boolean => {
  if (address.kind !== network.kind) return false;
  const shift = BigInt(widthOf(network.kind) - network.bits);
  return address.value >> shift === network.value >> shift;
};
