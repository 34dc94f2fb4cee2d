// Money in cents as US dollars ("$1,299.00").
export const dollars = (cents: number | string): string =>
  (Number(cents) / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

export const shortDate = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

// The names of balena's usage items; otherwise "type:name" as it is.
const itemNames: Record<string, string> = {
  'device:any': 'Devices',
  'device:microservices': 'Multi-container devices',
  'device:frozen': 'Frozen devices',
  'device:legacy-v1': 'Legacy devices',
  'device:legacy-v2': 'Classic devices',
  'member:administrator': 'Organization administrators',
  'member:member': 'Organization members',
  'member:developer': 'Developers',
  'member:safe-developer': 'Limited developers',
  'member:operator': 'Operators',
  'member:safe-operator': 'Limited operators',
  'member:observer': 'Observers',
};
export const itemName = (code: string): string => itemNames[code] ?? code;
