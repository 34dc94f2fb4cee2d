import http from 'node:http';
import type { Database } from '../infra/db/database.js';
import { heartbeatState, isOnline } from '../model/definitions/device-status.js';

// The multi-node test's clients through the load balancer: a console user's live log tail that
// reconnects as the console does, a device writing log lines and state reports that records what
// was acknowledged, and a watcher of the devices the database shows offline.

export type LiveTail = {
  // The process that answered (HAProxy's X-Flotilla-Node header).
  node: string;
  messages(): string[];
  ended: Promise<void>;
  close(): void;
};

// GET /device/v2/<uuid>/logs?stream=1: the history's last `count` lines, then every new one.
export const openLiveTail = (
  baseUrl: string,
  uuid: string,
  token: string,
  count: number,
): Promise<LiveTail> =>
  new Promise((resolve, reject) => {
    let text = '';
    const url = `${baseUrl}/device/v2/${uuid}/logs?stream=1&count=${count}`;
    const request = http.get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`tail answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => {
        res.once('close', done);
        res.once('error', () => done());
      });
      resolve({
        node: String(res.headers['x-flotilla-node']),
        messages: () =>
          text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => (JSON.parse(line) as { message: string }).message),
        ended,
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });

export type DeviceWriter = {
  // Log lines answered 201, in order.
  lines: string[];
  // The index of the last state report answered 200 (its ip_address is 10.0.<i / 250>.<i % 250>).
  lastReport(): number;
  // Requests that failed or answered otherwise (the ones in flight on the killed process).
  failures: string[];
  stop(): Promise<void>;
};

export const reportAddress = (index: number): string =>
  `10.0.${Math.floor(index / 250)}.${index % 250}`;

// One device writing through the load balancer, one request after the other: a log line, then a
// state report, again and again.
export const startDeviceWriter = (
  baseUrl: string,
  device: { uuid: string; key: string },
): DeviceWriter => {
  const lines: string[] = [];
  const failures: string[] = [];
  let lastReport = -1;
  let stopped = false;
  const headers = { authorization: `Bearer ${device.key}`, 'content-type': 'application/json' };
  const send = async (method: string, path: string, body: unknown): Promise<number> => {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      failures.push(`${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  };
  const loop = (async () => {
    for (let index = 0; !stopped; index++) {
      const message = `line ${index}`;
      const logged = await send('POST', `/device/v2/${device.uuid}/logs`, [
        { message, timestamp: Date.now() },
      ]);
      if (logged === 201) lines.push(message);
      else if (logged !== 0) failures.push(`log line answered ${logged}`);
      const reported = await send('PATCH', '/device/v3/state', {
        [device.uuid]: { status: 'Idle', ip_address: reportAddress(index) },
      });
      if (reported === 200) lastReport = index;
      else if (reported !== 0) failures.push(`state report answered ${reported}`);
    }
  })();
  return {
    lines,
    lastReport: () => lastReport,
    failures,
    async stop() {
      stopped = true;
      await loop;
    },
  };
};

// When each device was seen offline (first and last time), as the console reads it: is_online
// false or api_heartbeat_state other than online (the model's own expressions), or its cloudlink
// recorded as disconnected.
export type OfflineWatch = {
  seen: Map<string, { first: number; last: number }>;
  samples(): number;
  stop(): Promise<void>;
};

export const watchOffline = (db: Database, fleetId: number): OfflineWatch => {
  const seen = new Map<string, { first: number; last: number }>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const { rows } = await db.query<{ uuid: string }>(
        `SELECT d."uuid" FROM "device" d
          WHERE d."belongs_to__application" = $1
            AND d."last_contact_at" IS NOT NULL
            AND (NOT ${isOnline('d')} OR ${heartbeatState('d')} <> 'online'
                 OR NOT d."is_connected_to_vpn")`,
        [fleetId],
      );
      const at = Date.now();
      samples += 1;
      for (const { uuid } of rows) {
        const entry = seen.get(uuid);
        if (entry) entry.last = at;
        else seen.set(uuid, { first: at, last: at });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    seen,
    samples: () => samples,
    async stop() {
      stopped = true;
      await loop;
    },
  };
};
