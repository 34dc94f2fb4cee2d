import { createServer, type Server } from 'node:http';
import type Provider from 'oidc-provider';

// A strict fake of GitHub's REST API, only the two endpoints GitHub sign-in reads: GET /user and
// GET /user/emails. GitHub itself cannot run here; its OAuth part is the local oidc-provider,
// and this fake answers for the account an access token of that provider was issued to. Anything
// else (another path or method, a missing or unknown token, a missing GitHub media type) is
// recorded in `unexpected` and answered 400/401, so a test can assert nothing strayed.
export type GithubTestUser = {
  id: number;
  login: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
};

export type GithubApiFake = {
  url: string;
  // GitHub's user for the oidc-provider account id.
  setUser(accountId: string, user: GithubTestUser): void;
  unexpected: string[];
  close(): Promise<void>;
};

export const startGithubApiFake = async (provider: Provider): Promise<GithubApiFake> => {
  const users = new Map<string, GithubTestUser>();
  const unexpected: string[] = [];
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const refuse = (status: number, why: string): void => {
      unexpected.push(`${request.method ?? '?'} ${request.url ?? '?'}: ${why}`);
      answer(status, { message: why });
    };
    void (async () => {
      if (request.method !== 'GET' || (request.url !== '/user' && request.url !== '/user/emails')) {
        return refuse(400, 'not an endpoint of this fake');
      }
      if (request.headers.accept !== 'application/vnd.github+json') {
        return refuse(400, 'missing the GitHub media type');
      }
      const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const found = token === undefined ? undefined : await provider.AccessToken.find(token);
      const user = found?.accountId === undefined ? undefined : users.get(found.accountId);
      if (!user) return refuse(401, 'Bad credentials');
      return request.url === '/user'
        ? answer(200, { id: user.id, login: user.login, name: null })
        : answer(
            200,
            user.emails.map((entry) => ({ ...entry, visibility: null })),
          );
    })().catch((error: unknown) => refuse(500, String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    setUser: (accountId, user) => users.set(accountId, user),
    unexpected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
