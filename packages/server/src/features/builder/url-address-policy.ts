import ipaddr from 'ipaddr.js';

// Which addresses the builder may download a project from (POST /v3/buildFromUrl): public unicast
// addresses only, so a URL cannot make the server reach its own loopback, the operator's private
// network or a cloud metadata service (169.254.169.254). The operator may allow some networks
// anyway (FLOTILLA_BUILDER_ALLOWED_NETWORKS), e.g. an internal Git server.
export type AllowedNetworks = readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];

// The operator's list (checked by infra/config/config.ts): addresses and CIDR ranges.
export const parseAllowedNetworks = (entries: readonly string[]): AllowedNetworks =>
  entries.map((entry) => {
    if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128] as const;
  });

// ipaddr.js names for ranges, in words a user reads.
const rangeWords: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  carrierGradeNat: 'shared (carrier-grade NAT)',
};

// Why the address may not be fetched from, or null when it may. IPv4 addresses written as IPv6
// (::ffff:10.0.0.1) are judged as the IPv4 address they are.
export const addressRefusal = (address: string, allowed: AllowedNetworks): string | null => {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const parsed = ipaddr.process(address);
  const allowedHere = allowed.some(
    ([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits),
  );
  if (allowedHere) return null;
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `a ${rangeWords[range] ?? 'reserved'} address`;
};
