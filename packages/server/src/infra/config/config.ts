import path from 'node:path';
import { z } from 'zod';
import { type CorsOrigins, parseCorsOrigins } from './cors-origins.js';

// A help link set from the environment: an http(s) URL; an empty value counts as unset.
const linkUrl = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  FLOTILLA_DATA_DIR: z.string().min(1).default('./data'),
  FLOTILLA_EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  FLOTILLA_JWT_SECRET: z.string().min(32).optional(),
  FLOTILLA_ADMIN_EMAIL: z.string().email().optional(),
  FLOTILLA_ADMIN_PASSWORD: z.string().min(8).max(64).optional(),
  FLOTILLA_DEVICE_URLS_BASE: z.string().min(1).default('devices.flotilla.local'),
  FLOTILLA_LOG_RETENTION: z.coerce.number().int().min(1).max(100_000).default(1000),
  FLOTILLA_DEMO: z.enum(['on', 'off']).default('on'),
  FLOTILLA_LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  FLOTILLA_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  FLOTILLA_LINK_GETTING_STARTED: linkUrl,
  FLOTILLA_LINK_DOCS: linkUrl,
  FLOTILLA_LINK_FEATURE_REQUESTS: linkUrl,
  FLOTILLA_LINK_FORUMS: linkUrl,
  FLOTILLA_LINK_HELP: linkUrl,
  FLOTILLA_CORS_ORIGINS: z.string().default('*'),
  FLOTILLA_SERVE_SOURCE_MAPS: z.enum(['on', 'off']).default('off'),
  FLOTILLA_CONSOLE_DIR: z.string().min(1).optional(),
});

// The console header's help links (seed 000 section 2.3), served by GET /config. A path starts
// with / and is a page of the console itself; null hides the entry.
export type HelpLinks = {
  gettingStarted: string;
  docs: string;
  featureRequests: string | null;
  forums: string | null;
  help: string | null;
};

// The built-in documentation pages (features/docs serves their Markdown).
export const defaultHelpLinks: HelpLinks = {
  gettingStarted: '/docs/getting-started',
  docs: '/docs/agent',
  featureRequests: null,
  forums: null,
  help: null,
};

export type Config = {
  // Browser origins allowed to call the API from another origin (CORS); see cors.ts.
  corsOrigins: CorsOrigins;
  // Serve the console's .js.map files (off: they stay on disk only).
  serveSourceMaps: boolean;
  // The built console to serve; undefined = packages/web/dist of this checkout.
  consoleDir: string | undefined;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPostgresPort: number;
  jwtSecret: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  deviceUrlsBase: string;
  loginRateLimitPerMinute: number;
  // Log lines kept per device.
  logRetention: number;
  // Create the demo organization and fleets at start (npm start's demo).
  demo: boolean;
  logLevel: z.infer<typeof schema>['FLOTILLA_LOG_LEVEL'];
  helpLinks: HelpLinks;
};

// Every environment variable the server reads is here (and documented in README.md).
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const corsOrigins = parseCorsOrigins(values.FLOTILLA_CORS_ORIGINS);
  if (typeof corsOrigins === 'string') {
    throw new Error(`Invalid configuration: FLOTILLA_CORS_ORIGINS: ${corsOrigins}`);
  }
  return {
    corsOrigins,
    serveSourceMaps: values.FLOTILLA_SERVE_SOURCE_MAPS === 'on',
    consoleDir:
      values.FLOTILLA_CONSOLE_DIR === undefined
        ? undefined
        : path.resolve(values.FLOTILLA_CONSOLE_DIR),
    port: values.PORT,
    host: values.HOST,
    databaseUrl: values.DATABASE_URL,
    dataDir: path.resolve(values.FLOTILLA_DATA_DIR),
    embeddedPostgresPort: values.FLOTILLA_EMBEDDED_PG_PORT,
    jwtSecret: values.FLOTILLA_JWT_SECRET,
    adminEmail: values.FLOTILLA_ADMIN_EMAIL,
    adminPassword: values.FLOTILLA_ADMIN_PASSWORD,
    deviceUrlsBase: values.FLOTILLA_DEVICE_URLS_BASE,
    loginRateLimitPerMinute: values.FLOTILLA_LOGIN_RATE_LIMIT,
    demo: values.FLOTILLA_DEMO === 'on',
    logRetention: values.FLOTILLA_LOG_RETENTION,
    logLevel: values.FLOTILLA_LOG_LEVEL,
    helpLinks: {
      gettingStarted: values.FLOTILLA_LINK_GETTING_STARTED ?? defaultHelpLinks.gettingStarted,
      docs: values.FLOTILLA_LINK_DOCS ?? defaultHelpLinks.docs,
      featureRequests: values.FLOTILLA_LINK_FEATURE_REQUESTS ?? null,
      forums: values.FLOTILLA_LINK_FORUMS ?? null,
      help: values.FLOTILLA_LINK_HELP ?? null,
    },
  };
};
