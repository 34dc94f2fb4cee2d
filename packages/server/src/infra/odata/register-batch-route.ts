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
import { type CountGroup, countGroups, splitCounts } from './batched-counts.js';
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

// A read to run: one of the batch's, or (`counts`) the one read of a group of them.
type Response = {
  entry: BatchRequest;
  statement?: ReadStatement;
  text?: string;
  counts?: { group: CountGroup; members: Response[] };
};

const successText = (entry: BatchRequest, body: string): string =>
  `{"id":${json(entry.id)},"status":200,"headers":{"content-type":"application/json"},"body":${body}}`;

// A read's own failure (bad input, no permission, its timeout) is its answer; anything else (the
// database gone, a bug) fails the batch.
const failureText = (entry: BatchRequest, error: unknown): string => {
  const mapped = mapDatabaseError(error);
  if (!(mapped instanceof ApiError)) throw mapped;
  return `{"id":${json(entry.id)},"status":${httpStatusOf[mapped.code]},"headers":{"content-type":"text/plain; charset=utf-8"},"body":${json(mapped.message)}}`;
};

// Answers `response` with its value (a group's read: each member); false when a group's rows are
// not what they must be.
const settle = (response: Response, value: unknown): boolean => {
  if (!response.statement) return true;
  if (!response.counts) {
    response.text = successText(response.entry, answerText(response.statement, value));
    return true;
  }
  const texts = splitCounts(response.counts.group, String(value ?? '[]'));
  if (!texts) return false;
  for (const [index, member] of response.counts.members.entries()) {
    member.text = successText(member.entry, `{"d":${texts[index] ?? '[]'}}`);
  }
  return true;
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
    // Counts: planned once per connection (generically) rather than on each of their first five
    // runs; the fleet list's seven counts took 15 to 20 ms of PostgreSQL CPU to plan each time.
    const options =
      combined.name === undefined
        ? limits
        : { ...limits, prepareAs: combined.name, genericPlan: combined.countsOnly };
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
  return group.every((response, index) => settle(response, row?.[`c${index}`]));
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
      const responses = requests.map((entry): Response => ({ entry }));
      const paths = requests.map((entry) => v7PathOf(entry.url) ?? '');
      const prepare = (response: Response, path: string): Response => {
        try {
          response.statement = reads.prepare(path, request.actor);
        } catch (error) {
          response.text = failureText(response.entry, error);
        }
        return response;
      };
      // Counts of the same rows as one read each group (batched-counts.ts); a group whose read
      // cannot be compiled is left to its reads, each with its own answer.
      const grouped = new Set<number>();
      const work: Response[] = [];
      for (const group of countGroups(paths)) {
        const members = group.members.flatMap((index) => responses[index] ?? []);
        const first = members[0];
        if (!first) continue;
        try {
          const statement = reads.prepare(group.path, request.actor, true);
          work.push({ entry: first.entry, statement, counts: { group, members } });
          for (const index of group.members) grouped.add(index);
        } catch {
          // Each read alone below.
        }
      }
      for (const [index, response] of responses.entries()) {
        if (!grouped.has(index)) work.push(prepare(response, paths[index] ?? ''));
      }
      const pending = work.filter((response) => response.text === undefined);
      if (pending.length > 1 && (await answerTogether(db, combineReads, pending, limits))) {
        return sendResponses(reply, responses);
      }
      // One read, or a combined statement that failed: each read alone, so that a failure is its
      // own read's answer (a group's, its one read first, then each of its reads alone).
      const alone = async (response: Response): Promise<void> => {
        if (!response.statement) return;
        try {
          const value = await runRead(
            db,
            response.statement,
            limits,
            response.counts !== undefined,
          );
          if (!response.counts) {
            response.text = successText(response.entry, value);
            return;
          }
          // The rows' JSON text inside runRead's `{"d":...}`.
          if (settle(response, value.slice('{"d":'.length, -1))) return;
        } catch (error) {
          if (!response.counts) {
            response.text = failureText(response.entry, error);
            return;
          }
        }
        for (const member of response.counts.members) {
          await alone(prepare(member, paths[responses.indexOf(member)] ?? ''));
        }
      };
      let next = 0;
      const worker = async (): Promise<void> => {
        for (let index = next++; index < pending.length; index = next++) {
          const response = pending[index];
          if (response) await alone(response);
        }
      };
      await Promise.all(Array.from({ length: odataBatch.concurrency }, worker));
      return sendResponses(reply, responses);
    },
  });
};
