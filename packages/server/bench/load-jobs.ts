import type { Measure, Window } from './scenario.js';

// The messages between the orchestrator (load-client.ts) and the load generator process
// (load-generator.ts). A job is plain data: what to send, to which server, how hard. Adding a
// kind means a type here and its runner in load-generator.ts.

export type RequestSpec = {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  // Any other status counts as an error.
  expect: readonly number[];
};

// A device as a state report needs it (the body is built per request, see workload-state-report).
export type ReportDevice = {
  id: number;
  uuid: string;
  fleetUuid: string;
  commit: string;
  images: Record<string, string>;
  headers: Record<string, string>;
};

export type LogStreamSpec = {
  path: string;
  headers: Record<string, string>;
  linesPerSecond: number;
  // A live-tail subscriber of the same device, opened before the stream starts; on another
  // server than the upload's when `baseUrl` says (fan-out across processes).
  tail?: { path: string; headers: Record<string, string>; baseUrl?: string };
};

export type LoadJob =
  // Closed loop: each operation sends the next set's requests at once (round-robin over the
  // sets) and waits for all of them; its latency is the slowest.
  | { kind: 'requests'; baseUrl: string; concurrency: number; sets: RequestSpec[][] }
  | {
      kind: 'state-reports';
      baseUrl: string;
      path: string;
      concurrency: number;
      devices: ReportDevice[];
      // Reports that change stored fields (workload-changing-report.ts) rather than steady ones.
      changing?: boolean;
    }
  // One burst: every device reports each step of its update to `target`, then the job ends.
  | {
      kind: 'rollout';
      baseUrl: string;
      path: string;
      concurrency: number;
      devices: ReportDevice[];
      target: { commit: string; images: Record<string, string> };
    }
  // Long-lived NDJSON uploads; stored lines are counted in device_log (databaseUrl).
  | { kind: 'log-streams'; baseUrl: string; databaseUrl: string; streams: LogStreamSpec[] }
  // Opens websockets and keeps them until ws-close.
  | { kind: 'ws-open'; baseUrl: string; keys: string[]; uuids: string[]; concurrency: number }
  | { kind: 'ws-close' };

export type ToLoadGenerator = { type: 'job'; id: number; job: LoadJob; window: Window };

export type FromLoadGenerator =
  | { type: 'ready' }
  | { type: 'result'; id: number; measure: Measure }
  | { type: 'failed'; id: number; error: string };

export const isToLoadGenerator = (message: unknown): message is ToLoadGenerator =>
  typeof message === 'object' && message !== null && 'type' in message && message.type === 'job';

export const isFromLoadGenerator = (message: unknown): message is FromLoadGenerator =>
  typeof message === 'object' &&
  message !== null &&
  'type' in message &&
  (message.type === 'ready' || message.type === 'result' || message.type === 'failed');
