import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

// Requests for some hosts are not the app's: they never enter Fastify (no route, hook, CORS or
// security header of the console applies to them). Used by the public device URLs, whose
// `<uuid>.<base>` hosts are served on the same port as the app.
export type HostDiversion = {
  // Undefined: the request belongs to the app.
  claim(request: IncomingMessage): string | undefined;
  request(request: IncomingMessage, response: ServerResponse, claim: string): void;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, claim: string): void;
};

// The server's 'request' and 'upgrade' listeners (Fastify's and @fastify/websocket's, added
// while plugins load) are wrapped once everything is registered: claimed requests go to the
// diversion, every other one to the listeners as they were.
export const divertHosts = (app: FastifyInstance, diversion: HostDiversion): void => {
  app.addHook('onReady', async () => {
    const { server } = app;
    const requestListeners = server.listeners('request');
    const upgradeListeners = server.listeners('upgrade');
    server.removeAllListeners('request');
    server.removeAllListeners('upgrade');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const claim = diversion.claim(request);
      if (claim !== undefined) diversion.request(request, response, claim);
      else
        for (const listener of requestListeners)
          Reflect.apply(listener, server, [request, response]);
    });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const claim = diversion.claim(request);
      if (claim !== undefined) diversion.upgrade(request, socket, head, claim);
      else if (upgradeListeners.length === 0) socket.destroy();
      else
        for (const listener of upgradeListeners)
          Reflect.apply(listener, server, [request, socket, head]);
    });
  });
};
