import { performance } from 'node:perf_hooks';
import { connectFakeDevice, type FakeDevice } from '../src/test-support/fake-device-client.js';

// The cloudlink scenario's devices (protocol-cloudlink.ts forks this file): holds many agent
// websockets in a process of their own, so the server process's memory shows the server's cost
// alone.
// Messages: parent → child ClientRequest, child → parent ClientReport.

export type ClientRequest =
  | {
      type: 'open';
      baseUrl: string;
      devices: { uuid: string; key: string }[];
      // Handshakes in flight at once.
      concurrency: number;
    }
  | { type: 'close' };

export type ClientReport =
  | { type: 'ready' }
  | {
      type: 'opened';
      opened: number;
      failed: number;
      firstError: string | undefined;
      // Per successful connection: from the upgrade request to the open socket.
      latencies: number[];
      elapsedMs: number;
    }
  | { type: 'closed' };

const report = (message: ClientReport): void => {
  process.send?.(message);
};

const isRequest = (message: unknown): message is ClientRequest =>
  typeof message === 'object' &&
  message !== null &&
  'type' in message &&
  (message.type === 'open' || message.type === 'close');

const open: FakeDevice[] = [];

const openAll = async (request: Extract<ClientRequest, { type: 'open' }>): Promise<void> => {
  const latencies: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;
  const began = performance.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const device = request.devices[next++];
      if (!device) return;
      const start = performance.now();
      try {
        open.push(await connectFakeDevice(request.baseUrl, device.key, { uuid: device.uuid }));
        latencies.push(performance.now() - start);
      } catch (error) {
        failed += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, () => worker()));
  report({
    type: 'opened',
    opened: latencies.length,
    failed,
    firstError,
    latencies,
    elapsedMs: performance.now() - began,
  });
};

const closeAll = async (): Promise<void> => {
  await Promise.all(open.splice(0).map((device) => device.close()));
  report({ type: 'closed' });
  process.disconnect();
};

process.on('message', (message: unknown) => {
  if (!isRequest(message)) return;
  const work = message.type === 'open' ? openAll(message) : closeAll();
  work.catch((error: unknown) => {
    console.error('cloudlink clients:', error);
    process.exit(1);
  });
});
report({ type: 'ready' });
