import ipaddr from 'ipaddr.js';
import { z } from 'zod';

// A comma-separated list of addresses and CIDR ranges that outgoing requests (builds from URLs,
// code-host calls, webhook deliveries) may reach although private, loopback or link-local; empty
// = public addresses only. Each setting of that kind reads its list this one way; `problem` words
// the error for the first entry that is neither.
const namesTheEntry = (bad: string): string => `${bad} is not an address or CIDR range`;

export const allowedNetworks = (problem: (bad: string) => string = namesTheEntry) =>
  z
    .string()
    .default('')
    .transform((value, context) => {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      const bad = entries.find((entry) => !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry));
      if (bad !== undefined) {
        context.addIssue({ code: 'custom', message: problem(bad) });
      }
      return entries;
    });
