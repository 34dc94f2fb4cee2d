import { describe, expect, it } from 'vitest';
import { inNetwork, parseIpAddress, parseIpNetwork } from './ip-networks.js';

const within = (address: string, network: string): boolean => {
  const parsedAddress = parseIpAddress(address);
  const parsedNetwork = parseIpNetwork(network);
  if (parsedAddress === undefined || parsedNetwork === undefined) throw new Error('unparsed');
  return inNetwork(parsedAddress, parsedNetwork);
};

describe('IP networks', () => {
  it('parses IPv4, IPv6 in every written form, and IPv4 written as IPv6', () => {
    expect(parseIpAddress('10.1.2.3')).toEqual({ kind: 'ipv4', value: 0x0a010203n });
    expect(parseIpAddress('[::1]')).toEqual({ kind: 'ipv6', value: 1n });
    expect(parseIpAddress('fe80::1:2')).toEqual({
      kind: 'ipv6',
      value: (0xfe80n << 112n) | 0x10002n,
    });
    expect(parseIpAddress('1:2:3:4:5:6:7:8')?.value).toBe(0x00010002000300040005000600070008n);
    expect(parseIpAddress('::ffff:127.0.0.1')).toEqual({ kind: 'ipv4', value: 0x7f000001n });
    expect(parseIpAddress('[::ffff:7f00:1]')).toEqual({ kind: 'ipv4', value: 0x7f000001n });
  });

  it.each([
    '',
    '256.0.0.1',
    '1.2.3',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'fe80::1%eth0',
    'gggg::',
    'localhost',
  ])('refuses %j as an address', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });

  it('matches addresses against CIDR ranges of their own kind only', () => {
    expect(within('172.31.255.255', '172.16.0.0/12')).toBe(true);
    expect(within('172.32.0.0', '172.16.0.0/12')).toBe(false);
    expect(within('fdab::1', 'fc00::/7')).toBe(true);
    expect(within('fe00::1', 'fc00::/7')).toBe(false);
    expect(within('203.0.113.7', '203.0.113.7')).toBe(true);
    expect(within('8.8.8.8', '0.0.0.0/0')).toBe(true);
    expect(within('::1', '0.0.0.0/0')).toBe(false);
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/8/8', '10.0.0.0/x', 'intranet'])(
    'refuses %j as a network',
    (text) => {
      expect(parseIpNetwork(text)).toBeUndefined();
    },
  );
});
