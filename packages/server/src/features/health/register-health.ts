import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';

// Liveness probes: the console pings /ping (no token, no retry); devices use /connectivity-check.
// `ctx` is accepted for the uniform registerX(app, ctx) call in the composition root.
export const registerHealth = (app: FastifyInstance, _ctx?: AppContext): void => {
  app.get('/ping', { config: { access: 'public' } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('OK'),
  );
  app.get('/connectivity-check', { config: { access: 'public' } }, async (_request, reply) =>
    reply.status(204).send(),
  );
};
