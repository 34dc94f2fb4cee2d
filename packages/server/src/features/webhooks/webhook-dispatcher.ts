import type { Database } from '../../infra/db/database.js';
import { fanOutEvents } from './event-fanout.js';
import { claimDelivery, type ClaimedDelivery, nextDueAt } from './delivery-claim.js';
import { deliveryBody } from './delivery-body.js';
import {
  deliveryIdHeader,
  eventTypeHeader,
  signatureHeader,
  signatureHeaderValue,
} from './webhook-signing.js';
import type { WebhookSend } from './webhook-sender.js';
import { recordFailure, recordSuccess, type EndpointDisabled } from './delivery-outcome.js';

export type WebhookDispatcher = {
  // Fans out new events and delivers every due delivery (a notification, a retry, the catch-up).
  kick(): void;
  // Resolves once no run is going on (tests, orderly shutdown).
  idle(): Promise<void>;
  stop(): Promise<void>;
};

export type WebhookDispatcherDeps = {
  db: Database;
  // The clock retries and claims are timed by (injectable: tests move it a day ahead).
  now: () => Date;
  send: WebhookSend;
  log: { warn(details: object, message: string): void };
  // Told, in the transaction that disables it, that an endpoint kept failing.
  onDisabled: EndpointDisabled;
  // Waits at most this long before looking for due retries again.
  maxWaitMs?: number;
};

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 1000);

// One run at a time per process; several processes share the work through the claims (FOR UPDATE
// SKIP LOCKED, a lease in next_attempt_at), so a delivery is attempted by one of them at a time.
export const createWebhookDispatcher = (deps: WebhookDispatcherDeps): WebhookDispatcher => {
  const { db, now, send, log } = deps;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (delivery: ClaimedDelivery): Promise<void> => {
    const body = deliveryBody(delivery);
    const timestamp = Math.floor(now().getTime() / 1000);
    try {
      const answer = await send({
        url: delivery.url,
        body,
        headers: {
          [deliveryIdHeader]: delivery.deliveryUuid,
          [eventTypeHeader]: delivery.type,
          [signatureHeader]: signatureHeaderValue(delivery.secret, timestamp, body),
        },
      });
      if (answer.status >= 200 && answer.status < 300) {
        await recordSuccess(db, delivery, answer, now());
      } else {
        await recordFailure(db, delivery, { answer, error: `HTTP ${answer.status}` }, now(), deps);
      }
    } catch (error) {
      await recordFailure(
        db,
        delivery,
        { answer: undefined, error: errorText(error) },
        now(),
        deps,
      );
    }
  };

  const wakeAt = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    const due = await nextDueAt(db);
    const maxWait = deps.maxWaitMs ?? 60_000;
    const wait = due === undefined ? maxWait : Math.min(maxWait, due.getTime() - now().getTime());
    timer = setTimeout(kick, Math.max(wait, 0) + 50);
    timer.unref();
  };

  const run = async (): Promise<void> => {
    do {
      again = false;
      while ((await fanOutEvents(db, now())) > 0 && !stopped);
      for (;;) {
        if (stopped) return;
        const delivery = await claimDelivery(db, now());
        if (!delivery) break;
        await attempt(delivery);
      }
    } while (again && !stopped);
    await wakeAt();
  };

  function kick(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch((error: unknown) => log.warn({ err: error }, 'Webhook deliveries failed; will retry'))
      .finally(() => {
        running = undefined;
        if (again) kick();
      });
  }

  return {
    kick,
    idle: async () => {
      while (running) await running;
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
};
