import { z } from 'zod';
import { ApiError, notFound } from '../../infra/errors/api-error.js';

// Where public keys of a code-host user come from; tests give a local fake server's URL.
export type CodeHostKeys = (username: string) => Promise<string[]>;

const timeoutMs = 10_000;
const githubUsername = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const answer = z.array(z.object({ key: z.string() }));

// GitHub's public endpoint GET {api}/users/:username/keys (no token): [{ id, key }].
export const githubKeys =
  (apiUrl: string, fetchFn: typeof fetch = fetch): CodeHostKeys =>
  async (username) => {
    if (!githubUsername.test(username)) {
      throw new ApiError('bad_request', 'Not a valid GitHub username');
    }
    let response: Response;
    try {
      response = await fetchFn(`${apiUrl}/users/${encodeURIComponent(username)}/keys`, {
        headers: { accept: 'application/vnd.github+json', 'user-agent': 'flotilla' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new ApiError('service_unavailable', 'GitHub could not be reached; try again later');
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw notFound(`GitHub has no user ${username}`);
    }
    const parsed = response.ok ? answer.safeParse(await response.json().catch(() => null)) : null;
    if (!parsed?.success) {
      await response.body?.cancel().catch(() => undefined);
      throw new ApiError('service_unavailable', 'GitHub did not answer usably; try again later');
    }
    return parsed.data.map((entry) => entry.key);
  };
