import type { AppContext } from '../app-context.js';
import { issueSessionToken } from '../features/auth/issue-session-token.js';
import type { Database } from '../infra/db/database.js';
import { addOrganizationMember, createFleet, createOrganization, createUser } from './fixtures.js';

// Concurrent writers through the HTTP API, for the database-loss tests: each creates fleet tags
// with unique keys, one after the other, and records how every request was answered.

export type WriteTarget = { baseUrl: string; token: string; fleetId: number };

// An organization administrator with one fleet, and a session token for them.
export const prepareWriteTarget = async (
  ctx: Pick<AppContext, 'jwtSecret' | 'now'>,
  db: Database,
  baseUrl: string,
): Promise<WriteTarget> => {
  const user = await createUser(db, 'writer');
  const organization = await createOrganization(db, 'Writers');
  await addOrganizationMember(db, user.userId, organization, 'administrator');
  const fleet = await createFleet(db, organization, 'tags');
  return { baseUrl, token: await issueSessionToken(ctx, db, user.userId), fleetId: fleet.id };
};

export type WriteLoad = {
  // Tag keys whose creation was answered 2xx.
  acknowledged: string[];
  // Answers per HTTP status.
  statuses: Map<number, number>;
  // Anything but 2xx or 503-with-Retry-After (a 500, a dropped connection ...).
  unexpected: string[];
  // Resolves once `condition` holds (checked after every answer); rejects after `deadlineMs`.
  until(condition: () => boolean, what: string, deadlineMs: number): Promise<void>;
  stop(): Promise<void>;
};

// Keeps the keys of successive loads on one fleet apart.
let loads = 0;

export const startWriteLoad = (target: WriteTarget, writers: number): WriteLoad => {
  loads += 1;
  const prefix = `load${loads}`;
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const unexpected: string[] = [];
  const waiters = new Set<() => void>();
  let stopped = false;

  const write = async (key: string): Promise<void> => {
    try {
      const response = await fetch(`${target.baseUrl}/v7/application_tag`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ application: target.fleetId, tag_key: key, value: 'written' }),
      });
      const body = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.ok) acknowledged.push(key);
      else if (response.status !== 503 || response.headers.get('retry-after') === null) {
        unexpected.push(`${response.status} ${body}`);
      }
    } catch (error) {
      unexpected.push(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const check of [...waiters]) check();
  };

  const loops = Array.from({ length: writers }, async (_unused, writer) => {
    for (let index = 0; !stopped; index++) await write(`${prefix}-w${writer}-${index}`);
  });

  const summary = (): string =>
    `statuses ${JSON.stringify([...statuses])}, unexpected ${JSON.stringify(unexpected.slice(0, 5))}`;

  return {
    acknowledged,
    statuses,
    unexpected,
    until(condition, what, deadlineMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${what}: not within ${deadlineMs} ms (${summary()})`));
        }, deadlineMs);
        function check(): void {
          if (!condition()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
        check();
      });
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
};

export const countOf = (load: WriteLoad, status: number): number => load.statuses.get(status) ?? 0;

// Polls GET /ready until it answers 200; rejects after `deadlineMs`.
export const waitUntilReady = async (baseUrl: string, deadlineMs: number): Promise<void> => {
  const deadline = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/ready`).catch((error: unknown) => error);
    if (response instanceof Response && response.status === 200) return;
    last = response instanceof Response ? String(response.status) : String(response);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${baseUrl}/ready did not answer 200 within ${deadlineMs} ms (last: ${last})`);
};
