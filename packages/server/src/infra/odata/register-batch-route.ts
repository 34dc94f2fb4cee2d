import { odataBatch } from '@flotilla/shared/constants/limits';
import { httpStatusOf } from '@flotilla/shared/errors/error-codes';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { ApiError, badRequest } from '../errors/api-error.js';
import { maxUrlLength } from '../http/create-app.js';
import { parseBody } from '../http/validate.js';
import { mapDatabaseError } from './database-errors.js';
import { readAnswer, requestLimits, v7Prefix } from './register-odata-routes.js';
import type { ReadStatements } from './statement-cache.js';

// OData 4.01's JSON batch format, for reads only: `{requests: [{id, method: 'GET', url}]}`, each
// url relative to /v7 (`application?$select=id`) or absolute (`/v7/application?...`).
const batchBody = z.object({
  requests: z
    .array(
      z.object({
        id: z.string().min(1).max(64),
        method: z.literal('GET', { error: 'only GET requests can be batched' }),
        url: z.string().min(1).max(maxUrlLength),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .min(1)
    .max(odataBatch.maxRequests),
});

type BatchRequest = z.output<typeof batchBody>['requests'][number];

// The path after /v7 of a batched url; undefined when it points outside the data API.
const v7PathOf = (url: string): string | undefined => {
  if (url.startsWith(`${v7Prefix}/`)) return url.slice(v7Prefix.length);
  if (url.startsWith('/') || url.includes('://') || url.startsWith('$')) return undefined;
  return `/${url}`;
};

const json = JSON.stringify;

// `POST /v7/$batch`: several reads in one HTTP request, each answered as its own GET would be
// (same permissions, limits, statement cache and errors), so a screen that needs seven counts
// pays one request's overhead (authentication, HTTP) instead of seven. Responses keep the order
// and ids of the requests; a read's own failure is its response's status, not the batch's.
export const registerBatchRoute = (
  app: FastifyInstance,
  ctx: AppContext,
  reads: ReadStatements,
): void => {
  app.route({
    method: 'POST',
    url: `${v7Prefix}/$batch`,
    config: { access: 'public' },
    handler: async (request, reply) => {
      const { requests } = parseBody(batchBody, request.body);
      const ids = new Set(requests.map((entry) => entry.id));
      if (ids.size !== requests.length) throw badRequest('requests: ids must be unique');
      for (const entry of requests) {
        if (v7PathOf(entry.url) === undefined) {
          throw badRequest(`requests: ${entry.id}: only ${v7Prefix} reads can be batched`);
        }
      }
      const limits = requestLimits(reply, ctx.config.statementTimeoutMs);
      const answer = async (entry: BatchRequest): Promise<string> => {
        try {
          const body = await readAnswer(
            ctx,
            reads,
            v7PathOf(entry.url) ?? '',
            request.actor,
            limits,
          );
          return `{"id":${json(entry.id)},"status":200,"headers":{"content-type":"application/json"},"body":${body}}`;
        } catch (error) {
          const mapped = mapDatabaseError(error);
          // Anything but the caller's own input (the database gone, a bug) fails the batch.
          if (!(mapped instanceof ApiError)) throw mapped;
          return `{"id":${json(entry.id)},"status":${httpStatusOf[mapped.code]},"headers":{"content-type":"text/plain; charset=utf-8"},"body":${json(mapped.message)}}`;
        }
      };
      const responses: string[] = new Array<string>(requests.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        for (let index = next++; index < requests.length; index = next++) {
          const entry = requests[index];
          if (entry) responses[index] = await answer(entry);
        }
      };
      await Promise.all(Array.from({ length: odataBatch.concurrency }, worker));
      return reply.type('application/json').send(`{"responses":[${responses.join(',')}]}`);
    },
  });
};
