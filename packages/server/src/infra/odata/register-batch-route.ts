import { odataBatch } from '@flotilla/shared/constants/limits';
import { httpStatusOf } from '@flotilla/shared/errors/error-codes';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { QueryLimits } from '../db/cancellable-query.js';
import type { Queryable } from '../db/database.js';
import { ApiError, badRequest } from '../errors/api-error.js';
import { maxUrlLength } from '../http/create-app.js';
import { readDatabaseFor } from '../http/replica-reads.js';
import { parseBody } from '../http/validate.js';
import { mapDatabaseError } from './database-errors.js';
import { createReadCombiner, type ReadCombiner } from './combined-reads.js';
import {
  answerText,
  type ODataDeps,
  requestLimits,
  runRead,
  v7Prefix,
} from './register-odata-routes.js';
import type { ReadStatement, ReadStatements } from './statement-cache.js';

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

type Response = { entry: BatchRequest; statement?: ReadStatement; text?: string };

const successText = (entry: BatchRequest, body: string): string =>
  `{"id":${json(entry.id)},"status":200,"headers":{"content-type":"application/json"},"body":${body}}`;

// A read's own failure (bad input, no permission, its timeout) is its answer; anything else (the
// database gone, a bug) fails the batch.
const failureText = (entry: BatchRequest, error: unknown): string => {
  const mapped = mapDatabaseError(error);
  if (!(mapped instanceof ApiError)) throw mapped;
  return `{"id":${json(entry.id)},"status":${httpStatusOf[mapped.code]},"headers":{"content-type":"text/plain; charset=utf-8"},"body":${json(mapped.message)}}`;
};

// Some reads as one statement (combined-reads.ts); false when it failed with an error a read may
// have caused.
const answerGroup = async (
  db: Queryable,
  combineReads: ReadCombiner,
  group: readonly Response[],
  limits: QueryLimits,
): Promise<boolean> => {
  const statements = group.flatMap((response) => (response.statement ? [response.statement] : []));
  const combined = combineReads(statements);
  let row: Record<string, unknown> | undefined;
  try {
    const options = combined.name === undefined ? limits : { ...limits, prepareAs: combined.name };
    const { rows } = await db.query<Record<string, unknown>>(
      combined.text,
      combined.values,
      options,
    );
    row = rows[0];
  } catch (error) {
    const mapped = mapDatabaseError(error);
    if (!(mapped instanceof ApiError)) throw mapped;
    return false;
  }
  for (const [index, response] of group.entries()) {
    if (!response.statement) continue;
    response.text = successText(response.entry, answerText(response.statement, row?.[`c${index}`]));
  }
  return true;
};

// The reads as odataBatch.statements combined statements run side by side: one statement would
// leave PostgreSQL's other cores idle while a person waits for the seven counts of a fleet list.
// False when one failed with an error a read may have caused: each read then runs alone to
// answer with its own error.
const answerTogether = async (
  db: Queryable,
  combineReads: ReadCombiner,
  pending: readonly Response[],
  limits: QueryLimits,
): Promise<boolean> => {
  const size = Math.ceil(pending.length / odataBatch.statements);
  const groups: Response[][] = [];
  for (let start = 0; start < pending.length; start += size) {
    groups.push(pending.slice(start, start + size));
  }
  const answered = await Promise.all(
    groups.map((group) => answerGroup(db, combineReads, group, limits)),
  );
  return answered.every(Boolean);
};

const sendResponses = (reply: FastifyReply, responses: Response[]): FastifyReply =>
  reply
    .type('application/json')
    .send(`{"responses":[${responses.map((response) => response.text ?? '').join(',')}]}`);

// `POST /v7/$batch`: several reads in one HTTP request, each answered as its own GET would be
// (same permissions, limits, statement cache and errors), so a screen that needs seven counts
// pays one request's overhead (authentication, HTTP) instead of seven, and the reads run as one
// statement (combined-reads.ts). Responses keep the order and ids of the requests; a read's own
// failure is its response's status, not the batch's.
export const registerBatchRoute = (
  app: FastifyInstance,
  ctx: ODataDeps,
  reads: ReadStatements,
): void => {
  // As many combinations as the statement cache keeps shapes.
  const combineReads = createReadCombiner(ctx.config.odataCache.size);
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
      const db = readDatabaseFor(ctx.readRouting, ctx.db, request.actor);
      const responses = requests.map((entry): Response => {
        try {
          return { entry, statement: reads.prepare(v7PathOf(entry.url) ?? '', request.actor) };
        } catch (error) {
          return { entry, text: failureText(entry, error) };
        }
      });
      const pending = responses.filter((response) => response.text === undefined);
      if (pending.length > 1 && (await answerTogether(db, combineReads, pending, limits))) {
        return sendResponses(reply, responses);
      }
      // One read, or a combined statement that failed: each read alone, so that a failure is its
      // own read's answer.
      let next = 0;
      const worker = async (): Promise<void> => {
        for (let index = next++; index < pending.length; index = next++) {
          const response = pending[index];
          if (!response?.statement) continue;
          try {
            response.text = successText(
              response.entry,
              await runRead(db, response.statement, limits),
            );
          } catch (error) {
            response.text = failureText(response.entry, error);
          }
        }
      };
      await Promise.all(Array.from({ length: odataBatch.concurrency }, worker));
      return sendResponses(reply, responses);
    },
  });
};
