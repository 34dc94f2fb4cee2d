import type { FastifyInstance } from 'fastify';
import { type AppContext, messageBusOf } from '../../app-context.js';
import type { BusState } from '../../infra/db/notification-bus.js';
import { publicUrlOf } from '../mail/register-mail.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { parseAllowedNetworks } from '../builder/url-address-policy.js';
import { disabledNotice } from './disabled-notice.js';
import { sweepPresence, presenceSweepIntervalMs } from './presence-sweep.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import { createWebhookSender, resolveAll, type WebhookSend } from './webhook-sender.js';
import { sweepOldEvents, eventRetentionSweepMs } from './event-retention.js';

export type WebhookOptions = { send?: WebhookSend; schedule?: Schedule };

// Events out: the dispatcher of this process (woken by flotilla_events, a new event committed, and
// flotilla_webhooks, a delivery due again), the presence sweep that announces devices going
// offline and catches up on anything a lost notification left (every 10 s), the retention of old
// events, and the administrators' routes.
export const registerWebhooks = (
  app: FastifyInstance,
  ctx: AppContext,
  options: WebhookOptions = {},
): WebhookDispatcher => {
  const addressCheck = {
    allowed: parseAllowedNetworks(ctx.config.webhooks.allowedNetworks),
    resolve: resolveAll,
  };
  const dispatcher = createWebhookDispatcher({
    db: ctx.db,
    now: ctx.now,
    send: options.send ?? createWebhookSender(addressCheck, ctx.config.webhooks.timeoutMs),
    log: app.log,
    onDisabled: disabledNotice(() => publicUrlOf(app, ctx.config.publicUrl)),
  });
  const bus = messageBusOf(ctx);
  let unsubscribe: (() => void) | undefined;
  app.addHook('onReady', () => {
    const events = bus.listen('flotilla_events', () => dispatcher.kick());
    // Sent by this code, not by a trigger: on NATS when it carries the bus.
    const due = bus.listen('flotilla_webhooks', () => dispatcher.kick());
    const kickWhenListening = (state: BusState): void => {
      if (state === 'listening') dispatcher.kick();
    };
    const stopWatching = [ctx.notifications, bus].map((each) =>
      each.onStateChange(kickWhenListening),
    );
    unsubscribe = () => {
      events.close();
      due.close();
      for (const stop of stopWatching) stop();
    };
    dispatcher.kick();
    return Promise.resolve();
  });
  registerPeriodicTask(app, {
    run: async () => {
      await sweepPresence(ctx.db);
      dispatcher.kick();
    },
    intervalMs: presenceSweepIntervalMs,
    firstRunMs: 0,
    failure: 'could not sweep device presence; will retry',
    schedule: options.schedule,
  });
  registerPeriodicTask(app, {
    run: () => sweepOldEvents(ctx.db, ctx.now()),
    intervalMs: eventRetentionSweepMs,
    failure: 'could not sweep old events; will retry',
    schedule: options.schedule,
  });
  app.addHook('onClose', async () => {
    unsubscribe?.();
    await dispatcher.stop();
  });
  registerWebhookRoutes(app, ctx, {
    addressCheck,
    wake: () => bus.publish('flotilla_webhooks', ''),
  });
  return dispatcher;
};
