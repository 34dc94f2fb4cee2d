import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config, RecaptchaConfig } from '../../infra/config/config.js';
import type { Database } from '../../infra/db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { registerConfigRoutes } from '../config/register-config-routes.js';
import { captchaUnavailableMessage, createRecaptchaVerifier } from './recaptcha.js';
import { registerAuth } from './register-auth.js';

const secret = 'test-secret';
const siteKey = 'test-site-key';
const client = '198.51.100.20';

// A strict stand-in for reCAPTCHA's siteverify: it answers only the exact request the
// documentation describes (POST, form-encoded secret + response + remoteip) and records anything
// else, which fails the test.
type Siteverify = { url: string; seen: URLSearchParams[]; unexpected: string[]; server: Server };

const answers: Record<string, (response: ServerResponse) => void> = {
  human: (response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ success: true, hostname: 'localhost' })),
  replayed: (response) =>
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ success: false, 'error-codes': ['timeout-or-duplicate'] })),
  outage: (response) => response.writeHead(500).end('backend error'),
  garbage: (response) => response.writeHead(200).end('<html>not json</html>'),
  // Never answers: the verifier's timeout must end the wait.
  hang: () => undefined,
};

const startSiteverify = async (): Promise<Siteverify> => {
  const seen: URLSearchParams[] = [];
  const unexpected: string[] = [];
  const refuse = (response: ServerResponse, problem: string): void => {
    unexpected.push(problem);
    response.writeHead(400).end(problem);
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/recaptcha/api/siteverify') {
        return refuse(response, `${request.method ?? '?'} ${request.url ?? '?'}`);
      }
      if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        return refuse(response, `content-type ${request.headers['content-type'] ?? 'none'}`);
      }
      const form = new URLSearchParams(body);
      const fields = [...form.keys()].sort().join(',');
      if (fields !== 'remoteip,response,secret') return refuse(response, `fields ${fields}`);
      seen.push(form);
      if (form.get('secret') !== secret) {
        // What Google answers for a wrong secret.
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: false, 'error-codes': ['invalid-input-secret'] }));
        return;
      }
      const answer = answers[form.get('response') ?? ''];
      if (!answer) return refuse(response, `response ${form.get('response') ?? ''}`);
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const { port } = address;
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    seen,
    unexpected,
    server,
  };
};

let db: Database;
let siteverify: Siteverify;
const apps: FastifyInstance[] = [];
let emails = 0;

const appWith = async (config: Partial<Config>, timeoutMs?: number): Promise<FastifyInstance> => {
  const ctx = createTestContext(db, { config: { signupRateLimitPerHour: 1000, ...config } });
  const app = await createTestApp(ctx, registerConfigRoutes, (instance, context) =>
    registerAuth(
      instance,
      context,
      timeoutMs === undefined || !context.config.recaptcha
        ? {}
        : { captcha: createRecaptchaVerifier({ ...context.config.recaptcha, timeoutMs }) },
    ),
  );
  apps.push(app);
  return app;
};

const signUp = (app: FastifyInstance, captcha: string | undefined) =>
  app.inject({
    method: 'POST',
    url: '/user/register',
    remoteAddress: client,
    payload: {
      email: `captcha${(emails += 1)}@example.com`,
      password: 'long enough',
      ...(captcha === undefined ? {} : { 'g-recaptcha-response': captcha }),
    },
  });

beforeAll(async () => {
  db = await createTestDatabase();
  siteverify = await startSiteverify();
});

afterEach(() => {
  expect(siteverify.unexpected).toEqual([]);
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  siteverify.server.closeAllConnections();
  await new Promise((resolve) => siteverify.server.close(resolve));
  await db.close();
});

describe('reCAPTCHA on sign-up (FLOTILLA_RECAPTCHA_*)', () => {
  const recaptcha = (): RecaptchaConfig => ({ siteKey, secret, verifyUrl: siteverify.url });

  it('serves the site key in /config, and null without one', async () => {
    const withKey = await appWith({ recaptcha: recaptcha() });
    expect((await withKey.inject({ url: '/config' })).json()).toMatchObject({
      recaptchaSiteKey: siteKey,
    });
    const without = await appWith({});
    expect((await without.inject({ url: '/config' })).json()).toMatchObject({
      recaptchaSiteKey: null,
    });
  });

  it('accepts an answer siteverify confirms, sending the secret and the client address', async () => {
    const app = await appWith({ recaptcha: recaptcha() });
    const before = siteverify.seen.length;
    expect((await signUp(app, 'human')).statusCode).toBe(200);
    const sent = siteverify.seen.slice(before);
    expect(sent.map((form) => Object.fromEntries(form))).toEqual([
      { secret, response: 'human', remoteip: client },
    ]);
  });

  it('refuses a missing, wrong or reused answer with 400', async () => {
    const app = await appWith({ recaptcha: recaptcha() });
    const before = siteverify.seen.length;
    for (const captcha of [undefined, '', 'replayed']) {
      const response = await signUp(app, captcha);
      expect(response.statusCode).toBe(400);
      expect(response.body).toBe('Invalid captcha response');
    }
    // Only the non-empty answer was sent to the provider.
    expect(siteverify.seen.length - before).toBe(1);
  });

  it('answers 503, never 500 and never an account, when the provider fails', async () => {
    const app = await appWith({ recaptcha: recaptcha() });
    for (const captcha of ['outage', 'garbage']) {
      const response = await signUp(app, captcha);
      expect(response.statusCode, captcha).toBe(503);
      expect(response.body).toBe(captchaUnavailableMessage);
    }
    const misconfigured = await appWith({ recaptcha: { ...recaptcha(), secret: 'wrong-secret' } });
    const response = await signUp(misconfigured, 'human');
    expect(response.statusCode).toBe(503);
    // The operator learns why.
    const logged: string[] = [];
    const verifier = createRecaptchaVerifier({
      ...recaptcha(),
      secret: 'wrong-secret',
      log: (line) => logged.push(line),
    });
    await expect(verifier.verify('human', client)).rejects.toMatchObject({
      code: 'service_unavailable',
    });
    expect(logged).toEqual(['reCAPTCHA siteverify refused the request: invalid-input-secret']);
    const { rows } = await db.query(`SELECT 1 FROM "user" WHERE "email" LIKE 'captcha%'`);
    expect(rows).toHaveLength(1);
  });

  it('answers 503 when the provider does not answer in time', async () => {
    const app = await appWith({ recaptcha: recaptcha() }, 200);
    const response = await signUp(app, 'hang');
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe(captchaUnavailableMessage);
  });

  it('keeps the built-in verifier, which accepts everything, when not configured', async () => {
    const app = await appWith({});
    const before = siteverify.seen.length;
    expect((await signUp(app, undefined)).statusCode).toBe(200);
    expect(siteverify.seen.length).toBe(before);
  });
});
