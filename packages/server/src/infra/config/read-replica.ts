import { z } from 'zod';

// A read replica for heavy console reads (infra/db/read-routing.ts, docs/FAILOVER.md): where it
// is, and how stale what it answers may be. Unset: every statement goes to DATABASE_URL.
export type ReadReplicaConfig = {
  url: string | undefined;
  // Reads go to the replica only while it is known to hold everything the primary had committed
  // this long ago; otherwise (lagging, down, unchecked) they go to the primary.
  maxLagMs: number;
  // How often the replica's replay position is compared with the primary's.
  checkIntervalMs: number;
};

// The environment variables, spread into the server's one configuration schema.
export const readReplicaEnv = {
  FLOTILLA_DATABASE_READ_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  ),
  FLOTILLA_DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  FLOTILLA_DATABASE_READ_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
};

type ReadReplicaValues = {
  FLOTILLA_DATABASE_READ_URL?: string | undefined;
  FLOTILLA_DATABASE_READ_MAX_LAG_MS: number;
  FLOTILLA_DATABASE_READ_CHECK_MS: number;
};

export const readReplicaConfigOf = (values: ReadReplicaValues): ReadReplicaConfig => ({
  url: values.FLOTILLA_DATABASE_READ_URL,
  maxLagMs: values.FLOTILLA_DATABASE_READ_MAX_LAG_MS,
  checkIntervalMs: values.FLOTILLA_DATABASE_READ_CHECK_MS,
});
