import type { ActionResult } from '@flotilla/shared/cloudlink/messages';
import { isHostUpdateQueued, type QueuedAction } from '@flotilla/shared/devices/queued-actions';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { CloudlinkError } from '../cloudlink/cloudlink-error.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { deliveredHostUpdate } from './host-updates.js';
import {
  claimNext,
  devicesWithWaiting,
  expireDue,
  finish,
  type Outcome,
  putBack,
  releaseStale,
} from './queue-store.js';

// A delivery claimed this long ago and still not finished was cut short by a stopped process.
const staleClaimMs = 10 * 60_000;
const maxMessageLength = 500;

const textOf = (body: unknown): string | null => {
  if (body === undefined || body === null || body === '') return null;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.slice(0, maxMessageLength);
};

export const outcomeOfResult = (result: ActionResult): Outcome => ({
  status: result.status >= 200 && result.status < 300 ? 'done' : 'failed',
  resultStatus: result.status,
  message: textOf(result.body),
});

export type Delivery = {
  // Delivers the device's waiting actions, one after the other, in the order they were queued.
  // Resolves once its queue is empty or the device went away again.
  deliver(deviceId: number): Promise<void>;
  // Expires what is due and delivers to the devices this process holds (a queued action that
  // raced with a device connecting, a delivery a stopped process left half done).
  sweep(): Promise<void>;
  // Waits for deliveries under way (shutdown).
  settled(): Promise<void>;
};

export const createDelivery = (
  ctx: AppContext,
  cloudlink: Cloudlink,
  log: FastifyBaseLogger,
): Delivery => {
  const running = new Map<number, Promise<void>>();
  const again = new Set<number>();

  // An OS or supervisor update was delivered when its release was set: the device being back to
  // poll is all it waits for. The rest travel over the cloudlink.
  const send = async (deviceId: number, next: QueuedAction): Promise<Outcome> => {
    const { action } = next;
    if (isHostUpdateQueued(action)) return deliveredHostUpdate(ctx.db, { ...next, action });
    return outcomeOfResult(await cloudlink.sendAction(deviceId, action, next.params));
  };

  // Runs the device's actions until none waits; stops (the action waiting again) when the device
  // disconnects, since it will be delivered on the next connection.
  const drain = async (deviceId: number): Promise<void> => {
    for (;;) {
      const next = await claimNext(ctx.db, deviceId, ctx.now());
      if (!next) return;
      let outcome: Outcome;
      try {
        outcome = await send(deviceId, next);
      } catch (error) {
        if (error instanceof CloudlinkError && error.failure !== 'timeout') {
          await putBack(ctx.db, next.id);
          return;
        }
        // The device may have run an action it did not answer: never sent twice.
        const message = error instanceof CloudlinkError ? error.message : 'Delivery failed';
        if (!(error instanceof CloudlinkError)) logFailure(log, error, 'queued action failed');
        outcome = { status: 'failed', resultStatus: null, message };
      }
      await finish(ctx.db, next.id, outcome, ctx.now());
    }
  };

  const deliver = (deviceId: number): Promise<void> => {
    const current = running.get(deviceId);
    if (current) {
      again.add(deviceId);
      return current;
    }
    const work = (async () => {
      do {
        again.delete(deviceId);
        await drain(deviceId);
      } while (again.has(deviceId));
    })()
      .catch((error: unknown) => logFailure(log, error, 'queued actions: delivery failed'))
      .finally(() => running.delete(deviceId));
    running.set(deviceId, work);
    return work;
  };

  return {
    deliver,
    async sweep() {
      const now = ctx.now();
      await expireDue(ctx.db, now);
      await releaseStale(ctx.db, new Date(now.getTime() - staleClaimMs));
      const held = cloudlink.localDevices();
      if (held.length === 0) return;
      const waiting = await devicesWithWaiting(ctx.db, held);
      await Promise.all(waiting.map((deviceId) => deliver(deviceId)));
    },
    async settled() {
      await Promise.all([...running.values()]);
    },
  };
};
