import type { UsageKind } from '@flotilla/shared/analytics/usage';
import type { PlausibleConfig } from '../../infra/config/plausible.js';

export type ForwardedUse = { kind: UsageKind; name: string };

// Sends the uses the console counted to Plausible's events API, after they are stored here: a
// page view as a "pageview" of its route pattern, a feature use as a custom event of that name.
// Nothing about who goes out: no address (Plausible sees this server's), only the browser's
// user agent, which Plausible needs to tell browsers from bots. Best effort: a queue of bounded
// length, a few requests at a time, each with a deadline; what Plausible refuses or misses is
// dropped (the built-in counts keep it) and said once per outage in the server log.
export type UsageForwarder = {
  send(uses: readonly ForwardedUse[], userAgent: string): void;
  // Waits for the requests under way (at most the deadline of one).
  close(): Promise<void>;
};

export type ForwarderLog = { warn(message: string): void; info(message: string): void };

export const plausibleQueueLimit = 1_000;
const concurrency = 2;
const requestTimeoutMs = 5_000;
const userAgentLimit = 512;

type Job = { body: string; userAgent: string };

export const createPlausibleForwarder = (
  config: NonNullable<PlausibleConfig>,
  log: ForwarderLog,
  fetchImpl: typeof fetch = fetch,
): UsageForwarder => {
  const endpoint = `${config.url}/api/event`;
  const queue: Job[] = [];
  const running = new Set<Promise<void>>();
  let failing = false;
  let overflowing = false;
  let closed = false;

  const bodyOf = (use: ForwardedUse): string =>
    JSON.stringify(
      use.kind === 'page'
        ? { name: 'pageview', url: `https://${config.domain}${use.name}`, domain: config.domain }
        : { name: use.name, url: `https://${config.domain}/`, domain: config.domain },
    );

  const post = async (job: Job): Promise<void> => {
    try {
      const response = await fetchImpl(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': job.userAgent },
        body: job.body,
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`it answered ${response.status}`);
      if (failing) log.info('analytics: Plausible accepts events again');
      failing = false;
    } catch (error) {
      if (!failing) {
        const cause = error instanceof Error ? error.message : String(error);
        log.warn(`analytics: Plausible at ${config.url} did not take an event (${cause})`);
      }
      failing = true;
    }
  };

  const pump = (): void => {
    while (running.size < concurrency && queue.length > 0) {
      const job = queue.shift();
      if (!job) return;
      const task: Promise<void> = post(job).finally(() => {
        running.delete(task);
        pump();
      });
      running.add(task);
    }
  };

  return {
    send(uses, userAgent) {
      if (closed) return;
      const agent = userAgent.slice(0, userAgentLimit) || 'Mozilla/5.0';
      for (const use of uses) {
        if (queue.length >= plausibleQueueLimit) {
          if (!overflowing) log.warn('analytics: Plausible is behind; events dropped');
          overflowing = true;
          break;
        }
        overflowing = false;
        queue.push({ body: bodyOf(use), userAgent: agent });
      }
      pump();
    },
    async close() {
      closed = true;
      queue.length = 0;
      await Promise.allSettled([...running]);
    },
  };
};
