import { createServer, type IncomingMessage, type Server } from 'node:http';
import { cliLoginPath, cliLoginTarget } from '@flotilla/shared/auth/cli-login-target';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../src/test-support/test-server.js';
import { newSdk, registerUser, type RegisteredUser } from './contract-helpers.js';

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
};

// balena-cli 25's `login --web` receiving server (build/auth/server.js and utils.js), rebuilt
// with node:http: POST /auth with an urlencoded body (it parses nothing else), the `token` field
// trimmed; the token is tried with balena-sdk (loginWithToken, then isLoggedIn against the API);
// 200 when logged in, 401 otherwise; any other path or method 404. It keeps what it accepted.
const startCliLoginServer = async (apiUrl: string) => {
  const accepted: string[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || request.url !== '/auth') {
        response.writeHead(404).end('Not found');
        return;
      }
      const type = request.headers['content-type'] ?? '';
      const body = await readBody(request);
      const token = type.startsWith('application/x-www-form-urlencoded')
        ? new URLSearchParams(body).get('token')?.trim()
        : undefined;
      const sdk = newSdk(apiUrl);
      let loggedIn = false;
      if (token) {
        await sdk.auth.loginWithToken(token);
        loggedIn = await sdk.auth.isLoggedIn();
      }
      if (token && loggedIn) accepted.push(token);
      response.writeHead(loggedIn ? 200 : 401).end(loggedIn ? 'success' : 'error');
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    callbackUrl: `http://${address.address}:${address.port}/auth`,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

// What the console page's form submission sends (method post, one hidden field `token`):
// a browser encodes it as application/x-www-form-urlencoded.
const submitConsoleForm = (action: string, token: string) =>
  fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });

describe('balena login --web: the console hands its session to the CLI', () => {
  let server: TestServer;
  let user: RegisteredUser;

  beforeAll(async () => {
    server = await startTestServer();
    user = await registerUser(server.url, 'cliweb');
  });

  afterAll(async () => {
    await server?.close();
  });

  it("delivers a session token the CLI accepts, at the address the CLI's URL names", async () => {
    const cli = await startCliLoginServer(server.url);
    try {
      // The URL the CLI opens, as balena-cli 25 builds it, and the target the page reads from it.
      const opened = new URL(cliLoginPath(cli.callbackUrl), 'http://dashboard.test');
      const target = cliLoginTarget(opened.pathname.slice('/login/cli/'.length));
      expect(target).toMatchObject({ ok: true, url: cli.callbackUrl });
      if (!target.ok) return;
      const token = (await user.sdk.auth.getToken()) ?? '';
      const answer = await submitConsoleForm(target.url, token);
      expect(answer.status).toBe(200);
      expect(cli.accepted).toEqual([token]);
      // The CLI is now signed in as the user.
      const cliSdk = newSdk(server.url);
      await cliSdk.auth.loginWithToken(cli.accepted[0] ?? '');
      expect((await cliSdk.auth.getUserInfo()).email).toBe(user.email);
    } finally {
      await cli.close();
    }
  });

  it('is refused by the CLI when the token is not a valid session', async () => {
    const cli = await startCliLoginServer(server.url);
    try {
      const answer = await submitConsoleForm(cli.callbackUrl, 'not-a-token');
      expect(answer.status).toBe(401);
      expect(cli.accepted).toEqual([]);
    } finally {
      await cli.close();
    }
  });
});
