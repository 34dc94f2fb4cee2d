import ipaddr from 'ipaddr.js';

const networkHextets = 4; // the first 64 bits of 8 hextets

// The client address rate limits count by. An IPv4 client is its address (also when it arrives
// IPv4-mapped, ::ffff:a.b.c.d). An IPv6 client is its /64 network: one subscriber usually holds a
// whole /64, so counting single IPv6 addresses would let one client rotate through limits.
export const clientAddressKey = (ip: string): string => {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = ipaddr.IPv6.parse(ip).parts;
  const network = new ipaddr.IPv6([
    ...parts.slice(0, networkHextets),
    ...Array.from({ length: 8 - networkHextets }, () => 0),
  ]);
  return `${network.toString()}/64`;
};
