import { type IpNetwork, parseIpNetwork } from '@flotilla/shared/net/ip-networks';
import { z } from 'zod';

// Who may scrape /metrics: a bearer token, callers from listed networks, or both. Neither set:
// the endpoint is off (it names fleets, so it is never open by default).
export type PrometheusConfig = {
  token: string | undefined;
  allowedNetworks: IpNetwork[];
  // The fleets with the most devices get series of their own; the rest are summed.
  fleetLimit: number;
};

// The environment variables, spread into the server's one configuration schema.
export const prometheusEnv = {
  FLOTILLA_PROMETHEUS_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().trim().min(16, 'must be at least 16 characters').max(256).optional(),
  ),
  FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((value, context) => {
      const networks: IpNetwork[] = [];
      for (const entry of value.split(',').map((part) => part.trim())) {
        if (entry === '') continue;
        const network = parseIpNetwork(entry);
        if (network === undefined) {
          context.addIssue({ code: 'custom', message: `${entry} is not an address or CIDR range` });
        } else {
          networks.push(network);
        }
      }
      return networks;
    }),
  FLOTILLA_PROMETHEUS_FLEETS: z.coerce.number().int().min(1).max(1000).default(100),
};

type PrometheusValues = {
  FLOTILLA_PROMETHEUS_TOKEN?: string | undefined;
  FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS: IpNetwork[];
  FLOTILLA_PROMETHEUS_FLEETS: number;
};

export const prometheusConfigOf = (values: PrometheusValues): PrometheusConfig => ({
  token: values.FLOTILLA_PROMETHEUS_TOKEN,
  allowedNetworks: values.FLOTILLA_PROMETHEUS_ALLOWED_NETWORKS,
  fleetLimit: values.FLOTILLA_PROMETHEUS_FLEETS,
});
