import { terminalPath } from '@flotilla/shared/terminal/terminal-constants';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppContext } from '../../app-context.js';
import { ApiError, unauthorized } from '../../infra/errors/api-error.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import { terminalSessionRecorder } from '../audit-log/audit-events.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { notPermitted, type TerminalAccess, terminalAccess } from './terminal-access.js';
import { runTerminalSocket, type TerminalStart } from './terminal-socket.js';

// GET /terminal/v1: the console's web terminal, one websocket per
// session, relayed to the device's cloudlink wherever it is held. The upgrade is public: the
// credentials come in the first message (shared/terminal/terminal-protocol.ts). Registered after
// the cloudlink, whose websocket plugin it shares.
export const registerTerminal = (
  app: FastifyInstance,
  ctx: AppContext,
  cloudlink: Cloudlink,
  resolveActor: ActorResolver,
): void => {
  const sockets = new Set<WebSocket>();

  const authorize = async (start: TerminalStart): Promise<TerminalAccess> => {
    try {
      return await terminalAccess(ctx, await resolveActor(start.token), start.uuid, start.target);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthorized') {
        return { refused: notPermitted };
      }
      throw error;
    }
  };

  // Browsers get a proper close; their sessions end, which closes the shells.
  app.addHook('preClose', async () => {
    for (const socket of sockets) socket.close(1001, 'Server shutting down');
  });

  // The host OS access check (balena's /access/v1/hostos): 200 when the
  // caller may open the device's host OS terminal, 401 otherwise (an unknown device, no
  // ssh-host, or an OS too old for it: the body says which of the last two).
  app.get<{ Params: { uuid: string } }>(
    '/access/v1/hostos/:uuid',
    { config: { access: 'user' } },
    async (request, reply) => {
      const access = await terminalAccess(ctx, request.actor, request.params.uuid, {
        kind: 'host',
      });
      if ('refused' in access) throw unauthorized(access.refused);
      return reply.type('text/plain; charset=utf-8').send('OK');
    },
  );

  void app.register(async (scoped) => {
    scoped.get(terminalPath, { websocket: true, config: { access: 'public' } }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      runTerminalSocket(socket, {
        authorize,
        open: (deviceId, start, events) =>
          cloudlink.openTerminal(
            deviceId,
            { target: start.target, cols: start.cols, rows: start.rows },
            events,
          ),
        log: app.log,
        sessions: terminalSessionRecorder(ctx.db, ctx.now, app.log),
      });
    });
  });
};
