import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import { cloudlinkPath } from '@flotilla/shared/cloudlink/messages';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type AppContext, messageBusOf } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { registerPeriodicTask } from '../../infra/scheduling/periodic-task.js';
import { createActionRouter, type SendAction } from './action-router.js';
import { type CloudlinkOptions, defaultCloudlinkOptions } from './cloudlink-options.js';
import { closeCodes, DeviceLink, type LinkEvents } from './device-link.js';
import { createLinkRegistry } from './link-registry.js';
import { createNodeBus } from './node-bus.js';
import { startTargetNudges } from './target-nudges.js';
import { createTerminalRelay } from './terminal-relay.js';
import type { TerminalEvents, TerminalOpenRequest, TerminalPeer } from './terminal-stream.js';
import { deviceOffline } from './cloudlink-error.js';
import {
  aliveNodes,
  closeNode,
  closeSession,
  recordHostOsUpdates,
  liveDevices,
  liveHolder,
  openSession,
  reassertSessions,
  sweepDeadNodes,
  touchNode,
} from './session-store.js';

// The largest frame a device may send (an action result); anything bigger closes the socket.
const maxFrameBytes = 1_048_576;

const websocketOptions = {
  maxPayload: maxFrameBytes,
  // Frames are small JSON and the agent never asks for compression: no zlib context per socket.
  perMessageDeflate: false,
  // The link registry knows every socket; ws's own set would be a second entry per connection.
  clientTracking: false,
};

// An idle cloudlink should cost little more than its socket (RSS per connection is measured by
// the bench). After the upgrade, nothing may keep the HTTP request alive: the response still
// holds the socket (and through it the request, its headers and logger), and the websocket
// plugin's error listener closes over both. The response lets go of the socket, and the
// plugin's listener is swapped for one shared by every socket.
const releaseUpgrade = (
  socket: WebSocket,
  response: ServerResponse | undefined,
  onError: (this: WebSocket, error: Error) => void,
): void => {
  if (response?.socket) response.detachSocket(response.socket);
  socket.removeAllListeners('error');
  socket.on('error', onError);
};

export type Cloudlink = {
  // This process's id in cloudlink_node / cloudlink_session (random per start).
  nodeId: string;
  // Runs an action on a device, wherever its cloudlink is held, and returns the device's answer.
  // Rejects with a CloudlinkError when the device is offline or does not answer in time.
  sendAction: SendAction;
  // Opens a shell on a device wherever its cloudlink is held (features/terminal). Rejects with
  // a CloudlinkError ("offline") when it has none; every later outcome arrives through `events`.
  openTerminal(
    deviceId: number,
    request: TerminalOpenRequest,
    events: TerminalEvents,
  ): Promise<TerminalPeer>;
  // Which of the given devices have a live cloudlink (on any node).
  connectedDevices(deviceIds: readonly number[]): Promise<Set<number>>;
  // Cloudlinks held by this process.
  localConnectionCount(): number;
  // The devices whose cloudlink this process holds.
  localDevices(): number[];
  // Called on the process holding a device's new cloudlink once it is recorded (queued actions).
  onConnected(listener: (deviceId: number) => void): void;
};

// GET /cloudlink/v1: each device agent's websocket (Bearer device key, checked by the onRequest
// hook before the upgrade). One connection per device, a newer one replacing the older; the
// device is marked connected (is_connected_to_vpn, last_vpn_event) while it lasts.
export const registerCloudlink = (
  app: FastifyInstance,
  ctx: AppContext,
  overrides: Partial<CloudlinkOptions> = {},
): Cloudlink => {
  const options: CloudlinkOptions = { ...defaultCloudlinkOptions, ...overrides };
  const nodeId = randomBytes(8).toString('hex');
  const links = createLinkRegistry();
  let closing = false;
  const timers: NodeJS.Timeout[] = [];
  const connectedListeners: ((deviceId: number) => void)[] = [];

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

  // A socket error (a device vanishing mid-frame) ends the link; 'close' follows and cleans up.
  function dropBroken(this: WebSocket, error: Error): void {
    app.log.debug({ err: error }, 'cloudlink: socket error');
    this.terminate();
  }

  const bus = createNodeBus(
    messageBusOf(ctx),
    nodeId,
    (message) => {
      if (!relay.handle(message)) router.handle(message);
    },
    app.log,
  );
  const nudges = startTargetNudges(messageBusOf(ctx), links, {
    batch: options.targetNudgeBatch,
    intervalMs: options.targetNudgeIntervalMs,
  });
  const router = createActionRouter({ db: ctx.db, nodeId, links, bus, options, log: app.log });
  const relay = createTerminalRelay({ nodeId, links, bus, log: app.log });

  const openTerminal: Cloudlink['openTerminal'] = async (deviceId, request, events) => {
    const local = links.get(deviceId);
    if (local) return local.openTerminal(request, events);
    const holder = await liveHolder(ctx.db, deviceId, options.nodeStaleAfterMs);
    if (holder === undefined || holder === nodeId) throw deviceOffline();
    return relay.open(holder, deviceId, request, events);
  };

  // Shared by every link: nothing per connection but the link itself.
  const linkEvents: LinkEvents = {
    onHello(link, { uuid, hostOsUpdates }) {
      void link.opened.then((expected) => {
        if (expected !== undefined && expected !== uuid) {
          link.close(closeCodes.wrongDevice, 'The hello names another device than the key');
          return;
        }
        if (expected === undefined || hostOsUpdates === undefined) return;
        track(recordHostOsUpdates(ctx.db, { deviceId: link.deviceId, hostOsUpdates }), 'hello');
      });
    },
    onClose(link) {
      links.remove(link);
      // On shutdown closeNode ends every session of this node at once.
      if (closing) return;
      // The loss is ended by the device's next contact, however soon it comes.
      ctx.contacts.forget(link.deviceId);
      track(
        link.opened.then(() =>
          closeSession(ctx.db, {
            deviceId: link.deviceId,
            connectionId: link.connectionId,
            now: ctx.now(),
          }),
        ),
        'disconnect',
      );
    },
  };

  // Records the session; resolves with the device's uuid (undefined: device deleted, or a
  // failure, which closes the socket so the agent reconnects). Never rejects.
  const recordSession = async (link: DeviceLink): Promise<string | undefined> => {
    const { deviceId } = link;
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
      for (const listener of connectedListeners) listener(deviceId);
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
  };

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
    const link = new DeviceLink(socket, actor.deviceId, actor.applicationId, linkEvents);
    links.put(link)?.close(closeCodes.replaced, 'Replaced by a newer connection');
    link.opened = recordSession(link);
    track(link.opened, 'connect');
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

  // The heartbeat and the sweep on a connection of their own: behind the pool's queue (thousands
  // of devices connecting on a busy machine) a heartbeat held up past the stale time would have
  // the other nodes take this one for dead.
  const beats = ctx.db.reserve(1);
  let beaten = false;
  const heartbeat = async (): Promise<void> => {
    const swept = await touchNode(beats, nodeId);
    if (swept && beaten) {
      const held = [...links.all()].map(({ deviceId, connectionId }) => ({
        deviceId,
        connectionId,
      }));
      const restored = await reassertSessions(beats, nodeId, held, ctx.now());
      app.log.warn({ restored }, 'cloudlink: this node was taken for dead; its sessions restored');
    }
    beaten = true;
    await sweepDeadNodes(beats, options.nodeStaleAfterMs, ctx.now());
    const peers = relay.peerNodes();
    if (peers.size === 0) return;
    const alive = await aliveNodes(beats, [...peers], options.nodeStaleAfterMs);
    relay.dropNodes((node) => alive.has(node));
  };

  app.addHook('onReady', async () => {
    await heartbeat();
    timers.push(setInterval(pingAll, options.pingIntervalMs).unref());
  });
  // Added before the websocket plugin's own preClose, so devices get a proper "going away".
  app.addHook('preClose', async () => {
    closing = true;
    for (const link of links.all()) link.close(closeCodes.goingAway, 'Server shutting down');
  });
  app.addHook('onClose', async () => {
    closing = true;
    for (const timer of timers) clearInterval(timer);
    nudges.close();
    router.failWaiting();
    await relay.closeAll();
    bus.close();
    await Promise.all([...inFlight]);
    try {
      await closeNode(ctx.db, nodeId, ctx.now());
    } finally {
      await beats.close();
    }
    // Devices that did not complete the closing handshake are cut off.
    for (const link of links.all()) link.socket.terminate();
  });
  // After the first heartbeat of the ready hook above, by one interval. Registered after the
  // close hook: Fastify runs close hooks last-added first, so a heartbeat in progress ends before
  // the node is marked closed.
  registerPeriodicTask(app, {
    run: async () => {
      try {
        await heartbeat();
      } catch (error) {
        logFailure(app.log, error, 'cloudlink: node heartbeat failed');
      }
    },
    intervalMs: options.nodeHeartbeatMs,
    failure: 'cloudlink: node heartbeat failed',
  });

  void app.register(websocket, { options: websocketOptions });
  void app.register(async (scoped) => {
    // The upgrade's HTTP response, kept until the socket is handed over (see releaseUpgrade).
    const upgrades = new WeakMap<FastifyRequest, ServerResponse>();
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
        preHandler: async (request, reply) => {
          upgrades.set(request, reply.raw);
        },
      },
      (socket, request) => {
        releaseUpgrade(socket, upgrades.get(request), dropBroken);
        accept(socket, request.actor);
      },
    );
  });

  const cloudlink: Cloudlink = {
    nodeId,
    sendAction: router.sendAction,
    openTerminal,
    connectedDevices: (deviceIds) => liveDevices(ctx.db, deviceIds, options.nodeStaleAfterMs),
    localConnectionCount: () => links.size(),
    localDevices: () => [...links.all()].map((link) => link.deviceId),
    onConnected: (listener) => {
      connectedListeners.push(listener);
    },
  };
  return cloudlink;
};
