import { z } from 'zod';
import { allowedNetworks } from './allowed-networks.js';

// Outgoing webhook deliveries (features/webhooks): they reach public addresses only, as builds from
// URLs do, unless the operator allows some networks (an internal receiver).
export type WebhooksConfig = {
  // Addresses and CIDR ranges deliveries may reach although private, loopback or link-local.
  allowedNetworks: string[];
  // Each delivery attempt gives up after this long.
  timeoutMs: number;
};

// The environment variables, spread into the server's one configuration schema.
export const webhooksEnv = {
  FLOTILLA_WEBHOOK_ALLOWED_NETWORKS: allowedNetworks(),
  FLOTILLA_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
};

type WebhooksValues = {
  FLOTILLA_WEBHOOK_ALLOWED_NETWORKS: string[];
  FLOTILLA_WEBHOOK_TIMEOUT_MS: number;
};

export const webhooksConfigOf = (values: WebhooksValues): WebhooksConfig => ({
  allowedNetworks: values.FLOTILLA_WEBHOOK_ALLOWED_NETWORKS,
  timeoutMs: values.FLOTILLA_WEBHOOK_TIMEOUT_MS,
});
