import { createFlotillaClient, type FlotillaClient } from '../create-client.js';
import { memoryTokenStorage, type TokenStorage } from '../token-storage.js';
import { createFakeClock, type FakeClock } from './fake-clock.js';
import { createFakeServer, type FakeServer, testApiUrl } from './fake-server.js';

export type TestClient = {
  client: FlotillaClient;
  server: FakeServer;
  clock: FakeClock;
  storage: TokenStorage;
};

// A client wired to a fake server and a fake clock.
export const createTestClient = (token: string | null = null): TestClient => {
  const server = createFakeServer();
  const clock = createFakeClock();
  const storage = memoryTokenStorage(token);
  const client = createFlotillaClient({
    apiUrl: `${testApiUrl}/`,
    storage,
    fetch: server.fetch,
    clientHeader: 'flotilla-console/test',
    now: clock.now,
    setTimer: clock.setTimer,
    clearTimer: clock.clearTimer,
  });
  return { client, server, clock, storage };
};
