import type { RequestOptions } from '@flotilla/sdk/request';
import { vi } from 'vitest';
import type { FakeApi } from './fake-api.js';

// What a device page asks for beside its rows, answered quietly for tests that only pass through
// it (a guard landing there, the link crawl, the Action menu): the logs panel's stream (open,
// no lines), the metrics card's history (no readings yet), the terminal's host OS access check
// (open). Their own tests cover them.
export const answerDevicePageFeeds = (api: FakeApi, uuid: string): void => {
  api.on('GET', `/device/v2/${uuid}/logs`, () => ({
    status: 200,
    stream: new ReadableStream<Uint8Array>(),
  }));
  api.on('GET', `/device/v2/${uuid}/metrics`, () => ({
    status: 200,
    body: { since: '2033-03-01T00:00:00.000Z', until: '2033-03-02T00:00:00.000Z', points: [] },
  }));
  api.on('GET', `/access/v1/hostos/${uuid}`, () => ({ status: 200, text: 'OK' }));
};

// The supervisor calls, as the console asks the SDK for them, recorded (and answered "OK") by the
// returned mock; the reads of queued actions go on to the fake (none queued unless a test says).
export const recordActionRequests = (api: FakeApi) => {
  const request = vi.fn(async (_options: RequestOptions): Promise<unknown> => 'OK');
  const read = api.client.request.bind(api.client);
  Object.assign(api.client, {
    request: (options: RequestOptions) =>
      options.path.startsWith('/device-actions/v1/queued') ? read(options) : request(options),
  });
  return request;
};
