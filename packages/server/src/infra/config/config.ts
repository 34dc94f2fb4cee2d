import path from 'node:path';
import { z } from 'zod';

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
});

export type Config = {
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
  return {
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
  };
};
