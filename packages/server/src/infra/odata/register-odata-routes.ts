import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { Config } from '../config/config.js';
import type { QueryLimits } from '../db/cancellable-query.js';
import type { Database, Queryable } from '../db/database.js';
import type { ReadRouting } from '../db/read-routing.js';
import { readDatabaseFor, registerReadYourWrites } from '../http/replica-reads.js';
import { badRequest, forbidden } from '../errors/api-error.js';
import type { Model } from '../../model/model-types.js';
import { createCompileContext, resourceOf } from './compile-context.js';
import { readSql } from './compile-read.js';
import { mapDatabaseError } from './database-errors.js';
import type { HookRegistry, RequestOrigin } from './hooks.js';
import { createRow, deleteRows, updateRows } from './execute-write.js';
import { parseODataRequest } from './parse-request.js';
import { createSqlParams } from './sql-params.js';
import {
  createReadStatements,
  type ReadStatement,
  type ReadStatements,
} from './statement-cache.js';

export const v7Prefix = '/v7';

const rawPath = (request: FastifyRequest): string => (request.raw.url ?? '').slice(v7Prefix.length);

// Every statement of a /v7 request runs under the configured timeout and is cancelled when the
// client goes away (the response closed before it was written).
export const requestLimits = (reply: FastifyReply, timeoutMs: number): QueryLimits => {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return { signal: controller.signal, timeoutMs };
};

// Where a write came from, for the write observers (the audit log).
export const requestOrigin = (request: FastifyRequest): RequestOrigin => ({
  address: request.ip,
  userAgent: request.headers['user-agent'] ?? null,
  requestId: request.id,
});

// The JSON text of a read's answer, `{"d":[...]}` or `{"d":n}` for a count, from the value its
// statement selected: the rows' JSON text or the count, straight from PostgreSQL (never parsed).
export const answerText = (statement: ReadStatement, value: unknown): string =>
  statement.count ? `{"d":${String(value ?? 0)}}` : `{"d":${String(value ?? '[]')}}`;

// What the data API needs: the database, the model, the hooks features registered on it, its
// settings and the clock; and the read replica's routing when one is configured.
export type ODataDeps = {
  db: Database;
  readRouting?: ReadRouting;
  config: Pick<Config, 'odataCache' | 'statementTimeoutMs'>;
  model: Model;
  hooks: HookRegistry;
  now: () => Date;
};

// Runs one compiled read (prepared for a kept shape) and returns its answer's JSON text.
// `genericPlan`: QueryOptions.genericPlan, for a kept statement.
export const runRead = async (
  db: Queryable,
  statement: ReadStatement,
  limits: QueryLimits,
  genericPlan = false,
): Promise<string> => {
  const options =
    statement.name === undefined ? limits : { ...limits, prepareAs: statement.name, genericPlan };
  const { rows } = await db.query<{ n?: unknown; d?: unknown }>(
    statement.text,
    statement.values,
    options,
  );
  return answerText(statement, statement.count ? rows[0]?.n : rows[0]?.d);
};

// The answer of the read at `path` (the URL after /v7).
export const readAnswer = async (
  db: Queryable,
  reads: ReadStatements,
  path: string,
  actor: Actor,
  limits: QueryLimits,
): Promise<string> => runRead(db, reads.prepare(path, actor), limits);

// The generic data API: every /v7 request is parsed, compiled to one permission-scoped SQL
// statement (or a transaction for writes) and answered with balena's envelope. Reads of a known
// shape skip both (statement-cache.ts); the cache is returned for tests.
export const registerODataRoutes = (app: FastifyInstance, ctx: ODataDeps): ReadStatements => {
  const reads = createReadStatements(ctx.model, ctx.config.odataCache);
  if (ctx.readRouting) registerReadYourWrites(app, ctx.readRouting, [`${v7Prefix}/$batch`]);
  const contextFor = (
    request: FastifyRequest,
    binds: ReturnType<typeof parseODataRequest>['binds'],
  ) => createCompileContext(ctx.model, createSqlParams(request.actor, binds));

  const handleGet = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const limits = requestLimits(reply, ctx.config.statementTimeoutMs);
    const db = readDatabaseFor(ctx.readRouting, ctx.db, request.actor);
    const answer = await readAnswer(db, reads, rawPath(request), request.actor, limits);
    return reply.type('application/json').send(answer);
  };

  // A resource's action (hooks.ts `actions`): on one row the caller may update.
  const runAction = async (
    request: FastifyRequest,
    reply: FastifyReply,
    parsed: ReturnType<typeof parseODataRequest>,
    resourceName: string,
  ): Promise<FastifyReply> => {
    const action = parsed.action ?? '';
    const handler = ctx.hooks
      .of(resourceName)
      .map((hooks) => hooks.actions?.[action])
      .find((found) => found !== undefined);
    if (!handler || request.method !== 'POST') throw badRequest(`Unknown action '${action}'`);
    if (parsed.key === undefined) throw badRequest(`'${action}' needs the row's id`);
    const resource = resourceOf(ctx.model, parsed.resource);
    const now = ctx.now();
    const limits = requestLimits(reply, ctx.config.statementTimeoutMs);
    const result = await ctx.db.transaction(async (tx) => {
      const writeContext = {
        tx,
        actor: request.actor,
        resource: resource.name,
        now,
        origin: requestOrigin(request),
      };
      const deps = {
        tx,
        hooks: ctx.hooks,
        writeContext,
        makeContext: () => contextFor(request, parsed.binds),
      };
      const target = { resource, key: parsed.key, options: parsed.options };
      const [id, ...more] = await updateRows(deps, target, {});
      if (id === undefined || more.length > 0) throw forbidden();
      return handler(writeContext, id, request.body ?? {});
    }, limits);
    return reply.status(200).send(result ?? '');
  };

  const handleWrite = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> => {
    const parsed = parseODataRequest(rawPath(request));
    const resource = resourceOf(ctx.model, parsed.resource);
    if (parsed.action) return runAction(request, reply, parsed, resource.name);
    if (parsed.count) throw badRequest('$count cannot be written');
    const now = ctx.now();
    const limits = requestLimits(reply, ctx.config.statementTimeoutMs);
    const result = await ctx.db.transaction(async (tx) => {
      const deps = {
        tx,
        hooks: ctx.hooks,
        writeContext: {
          tx,
          actor: request.actor,
          resource: resource.name,
          now,
          origin: requestOrigin(request),
        },
        makeContext: () => contextFor(request, parsed.binds),
      };
      const target = { resource, key: parsed.key, options: parsed.options };
      switch (request.method) {
        case 'POST': {
          if (parsed.key !== undefined) throw badRequest('POST goes to the collection, not a key');
          const id = await createRow(deps, resource, request.body ?? {});
          if (parsed.options.returnResource === 'false') return { created: { id } };
          const compile = deps.makeContext();
          const { rows } = await tx.query<{ d: string }>(
            readSql(compile, resource, {}, undefined, id),
            compile.params.values(),
          );
          return { created: id, body: rows[0]?.d ?? '[]' };
        }
        case 'PATCH':
        case 'PUT':
        case 'MERGE':
          if (parsed.key === undefined && parsed.options.$filter === undefined) {
            throw badRequest('A PATCH without a key needs a $filter');
          }
          await updateRows(deps, target, request.body ?? {});
          return {};
        case 'DELETE':
          if (parsed.key === undefined && parsed.options.$filter === undefined) {
            throw badRequest('A DELETE without a key needs a $filter');
          }
          await deleteRows(deps, target);
          return {};
        default:
          throw badRequest(`Unsupported method ${request.method}`);
      }
    }, limits);
    if ('created' in result) {
      if (typeof result.created === 'object') return reply.status(201).send(result.created);
      void reply.header('Location', `${v7Prefix}/${resource.name}(${result.created})`);
      const rows = JSON.parse(result.body ?? '[]') as unknown[];
      return reply.status(201).send(rows[0] ?? { id: result.created });
    }
    return reply.status(200).send('');
  };

  const guard =
    (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      try {
        return await handler(request, reply);
      } catch (error) {
        throw mapDatabaseError(error);
      }
    };

  app.route({
    method: 'GET',
    url: `${v7Prefix}/*`,
    config: { access: 'public', unverifiedUsers: 'own-account' },
    handler: guard(handleGet),
  });
  app.route({
    method: ['POST', 'PATCH', 'PUT', 'DELETE'],
    url: `${v7Prefix}/*`,
    config: { access: 'public', unverifiedUsers: 'own-account' },
    handler: guard(handleWrite),
  });
  return reads;
};
