import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { createActionRouter, type SendAction } from './action-router.js';
import { type CloudlinkOptions, defaultCloudlinkOptions } from './cloudlink-options.js';
import { closeCodes, createDeviceLink, type DeviceLink } from './device-link.js';
import { createLinkRegistry } from './link-registry.js';
import { createNodeBus } from './node-bus.js';
import {
  closeNode,
  closeSession,
  liveDevices,
  openSession,
  sweepDeadNodes,
  touchNode,
} from './session-store.js';

// The largest frame a device may send (an action result); anything bigger closes the socket.
const maxFrameBytes = 1_048_576;

export type Cloudlink = {
  // This process's id in cloudlink_node / cloudlink_session (random per start).
  nodeId: string;
  // Runs an action on a device, wherever its cloudlink is held, and returns the device's answer.
  // Rejects with a CloudlinkError when the device is offline or does not answer in time.
  sendAction: SendAction;
  // Which of the given devices have a live cloudlink (on any node).
  connectedDevices(deviceIds: readonly number[]): Promise<Set<number>>;
  // Cloudlinks held by this process.
  localConnectionCount(): number;
};

// Registration is idempotent per app (returns the first registration's Cloudlink), so test
// harnesses can add it to a buildServer app whether or not the composition root already did; a
// repeated call still applies its timings, which are read when the app gets ready and per call.
const registered = new WeakMap<
  FastifyInstance,
  { cloudlink: Cloudlink; options: CloudlinkOptions }
>();

// GET /cloudlink/v1: each device agent's websocket (Bearer device key, checked by the onRequest
// hook before the upgrade). One connection per device, a newer one replacing the older; the
// device is marked connected (is_connected_to_vpn, last_vpn_event) while it lasts.
export const registerCloudlink = (
  app: FastifyInstance,
  ctx: AppContext,
  overrides: Partial<CloudlinkOptions> = {},
): Cloudlink => {
  const existing = registered.get(app);
  if (existing) {
    Object.assign(existing.options, overrides);
    return existing.cloudlink;
  }
  const options: CloudlinkOptions = { ...defaultCloudlinkOptions, ...overrides };
  const nodeId = randomBytes(8).toString('hex');
  const links = createLinkRegistry();
  let closing = false;
  const timers: NodeJS.Timeout[] = [];

  // Database work started by socket events; shutdown waits for it before the pool closes.
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<unknown>, what: string): void => {
    const settled: Promise<void> = work.then(
      () => undefined,
      (error: unknown) => logFailure(app.log, error, `cloudlink: ${what} failed`),
    );
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
  };

  const bus = createNodeBus(
    ctx.notifications,
    ctx.db,
    nodeId,
    (message) => router.handle(message),
    app.log,
  );
  const router = createActionRouter({ db: ctx.db, nodeId, links, bus, options, log: app.log });

  const accept = (socket: WebSocket, actor: Actor): void => {
    // The onRequest hook already refused anything but a device key; this keeps the types honest.
    if (actor.kind !== 'device') {
      socket.close(4401, 'Unauthorized');
      return;
    }
    if (closing) {
      socket.close(closeCodes.goingAway, 'Server shutting down');
      return;
    }
    const deviceId = actor.deviceId;
    // Resolves with the device's uuid once the session is recorded (undefined: device deleted).
    let opened: Promise<string | undefined> = Promise.resolve(undefined);
    const link: DeviceLink = createDeviceLink(socket, deviceId, {
      onHello(current, uuid) {
        void opened.then((expected) => {
          if (expected !== undefined && expected !== uuid) {
            current.close(closeCodes.wrongDevice, 'The hello names another device than the key');
          }
        });
      },
      onClose(current) {
        links.remove(current);
        // On shutdown closeNode ends every session of this node at once.
        if (closing) return;
        track(
          opened.then(() =>
            closeSession(ctx.db, {
              deviceId,
              connectionId: current.connectionId,
              now: ctx.now(),
            }),
          ),
          'disconnect',
        );
      },
    });
    links.put(link)?.close(closeCodes.replaced, 'Replaced by a newer connection');
    // Never rejects: a failure closes the socket (the agent reconnects) and is logged here.
    opened = (async () => {
      try {
        const now = ctx.now();
        const session = await openSession(ctx.db, {
          deviceId,
          nodeId,
          connectionId: link.connectionId,
          now,
        });
        if (!session) {
          link.close(closeCodes.deviceGone, 'Device not found');
          return undefined;
        }
        const replaced = session.replaced;
        if (replaced && replaced.nodeId !== nodeId) {
          await bus.publish(replaced.nodeId, {
            kind: 'evict',
            deviceId,
            connectionId: replaced.connectionId,
          });
        }
        // A live cloudlink is a contact, like a target-state poll (features/heartbeat).
        ctx.contacts.record(deviceId, now);
        return session.uuid;
      } catch (error) {
        logFailure(
          app.log,
          error,
          `cloudlink: could not record the connection of device ${deviceId}`,
        );
        link.close(closeCodes.serverError, 'Server error');
        return undefined;
      }
    })();
    track(opened, 'connect');
  };

  // Every tick: drop links that did not answer the previous ping, ping the others.
  const pingAll = (): void => {
    for (const link of links.all()) {
      if (!link.alive) {
        link.socket.terminate();
        continue;
      }
      link.alive = false;
      try {
        link.socket.ping();
      } catch {
        link.socket.terminate();
      }
    }
  };

  const heartbeat = async (): Promise<void> => {
    await touchNode(ctx.db, nodeId);
    await sweepDeadNodes(ctx.db, options.nodeStaleAfterMs, ctx.now());
  };

  app.addHook('onReady', async () => {
    await heartbeat();
    timers.push(
      setInterval(() => track(heartbeat(), 'node heartbeat'), options.nodeHeartbeatMs).unref(),
      setInterval(pingAll, options.pingIntervalMs).unref(),
    );
  });
  // Added before the websocket plugin's own preClose, so devices get a proper "going away".
  app.addHook('preClose', async () => {
    closing = true;
    for (const link of links.all()) link.close(closeCodes.goingAway, 'Server shutting down');
  });
  app.addHook('onClose', async () => {
    closing = true;
    for (const timer of timers) clearInterval(timer);
    router.failWaiting();
    bus.close();
    await Promise.all([...inFlight]);
    await closeNode(ctx.db, nodeId, ctx.now());
    // Devices that did not complete the closing handshake are cut off.
    for (const link of links.all()) link.socket.terminate();
  });

  void app.register(websocket, { options: { maxPayload: maxFrameBytes } });
  void app.register(async (scoped) => {
    scoped.get(
      cloudlinkPath,
      {
        websocket: true,
        config: { access: 'device' },
        // A refused upgrade (401 from the access check) is answered before the websocket plugin
        // marks the request as one, so the plugin would leave its socket open: close it here.
        onResponse: async (request) => {
          if (request.headers.upgrade !== undefined && !request.ws) request.raw.socket.destroy();
        },
      },
      (socket, request) => accept(socket, request.actor),
    );
  });

  const cloudlink: Cloudlink = {
    nodeId,
    sendAction: router.sendAction,
    connectedDevices: (deviceIds) => liveDevices(ctx.db, deviceIds, options.nodeStaleAfterMs),
    localConnectionCount: () => links.size(),
  };
  registered.set(app, { cloudlink, options });
  return cloudlink;
};
