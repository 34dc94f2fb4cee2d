import type { Queryable } from '../src/infra/db/database.js';
import type { LoadOptions } from './measure.js';

// What the device protocol scenarios (protocol.ts) share: their options, the simulated devices,
// the environment they run in and the rows of their table.

export type ProtocolOptions = {
  // Simulated devices (each gets a device key): BENCH_PROTOCOL_DEVICES.
  devices: number;
  // Concurrent NDJSON log uploads: BENCH_LOG_STREAMS.
  logStreams: number;
  // Websockets held open at once: BENCH_CLOUDLINK_CONNECTIONS.
  cloudlinkConnections: number;
  load: LoadOptions;
};

export type ProtocolDevice = {
  id: number;
  uuid: string;
  key: string;
  fleetUuid: string;
  commit: string;
  // Image reference per service name of the fleet's release.
  images: Record<string, string>;
};

export type ProtocolResult = {
  name: string;
  unit: 'req/s' | 'lines/s' | 'conn/s';
  // NaN when the scenario was skipped or failed (see notes).
  rate: number;
  p50Ms: number;
  p99Ms: number;
  notes: string;
  errors: number;
  firstError: string | undefined;
  // Why the scenario did not run (e.g. the route is missing); not a failure.
  skipped?: string;
  // The scenario itself crashed (not a failed request): the benchmark exits non-zero.
  failed?: string;
  // Raw numbers for bench-results/latest.json.
  details: Record<string, number>;
};

export type ProtocolEnv = {
  baseUrl: string;
  sql: Queryable;
  options: ProtocolOptions;
  log: (line: string) => void;
};
