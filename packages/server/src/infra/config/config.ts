import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy, type TrustProxy, trustProxyProblem } from './trust-proxy.js';
import { type CorsOrigins, parseCorsOrigins } from './cors-origins.js';
import { type CodeHostConfig, codeHostConfigOf, codeHostEnv } from './code-host.js';
import { type ChatWidgetConfig, chatWidgetConfigOf, chatWidgetEnv } from './chat-widget.js';
import { type RateLimitConfig, rateLimitConfigOf, rateLimitEnv } from './rate-limits.js';
import { type StripeConfig, stripeConfigOf, stripeEnv } from './stripe.js';
import { serviceAgreementEnv, serviceAgreementUrlOf } from './service-agreement.js';
import { type PlausibleConfig, plausibleConfigOf, plausibleEnv } from './plausible.js';
import { type PrometheusConfig, prometheusConfigOf, prometheusEnv } from './prometheus.js';
import { type AuditLogConfig, auditLogConfigOf, auditLogEnv } from './audit-log.js';
import { type DeviceLogConfig, deviceLogConfigOf, deviceLogEnv } from './device-logs.js';
import { type SocialAuthConfig, socialAuthConfigOf, socialAuthEnv } from './social-auth.js';
import { type HelpDeskConfig, helpDeskConfigOf, helpDeskEnv } from './help-desk.js';
import { type WebhooksConfig, webhooksConfigOf, webhooksEnv } from './webhooks.js';
import { type HelpLinks, helpLinksEnv, helpLinksOf } from './help-links.js';
import { linkUrl } from './link-url.js';
import { type ReadReplicaConfig, readReplicaConfigOf, readReplicaEnv } from './read-replica.js';
import { type BuilderConfig, builderConfigOf, builderEnv } from './builder.js';
import { type MessageBusConfig, messageBusConfigOf, messageBusEnv } from './message-bus.js';
import { type SignupMode, signupModes } from '@flotilla/shared/auth/signup-mode';
import { parseIpNetwork } from '@flotilla/shared/net/ip-networks';

// An optional secret or key: an empty value counts as unset.
const optionalText = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.string().trim().min(1).optional(),
);

export const defaultRecaptchaVerifyUrl = 'https://www.google.com/recaptcha/api/siteverify';
export const defaultGithubApiUrl = 'https://api.github.com';

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().url().optional(),
  FLOTILLA_DATA_DIR: z.string().min(1).default('./data'),
  FLOTILLA_EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  FLOTILLA_JWT_SECRET: z.string().min(32).optional(),
  FLOTILLA_ADMIN_EMAIL: z.string().email().optional(),
  FLOTILLA_ADMIN_PASSWORD: z.string().min(8).max(64).optional(),
  // Unset: `localhost:<the port listened on>`, so `<uuid>.localhost:<port>` works without DNS.
  FLOTILLA_DEVICE_URLS_BASE: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .regex(/^[a-z0-9.-]+(?::\d{1,5})?$/i, 'must be a host name, optionally with :port')
      .optional(),
  ),
  // Empty: maps show no tiles (markers and coordinates only), e.g. with no internet access.
  FLOTILLA_MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  FLOTILLA_MAP_ATTRIBUTION: z.string().default('© OpenStreetMap contributors'),
  // A short word for page titles and the console's header ("staging"); empty counts as unset.
  FLOTILLA_DEPLOYMENT_TAG: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^[\w .-]{1,32}$/, 'must be 1 to 32 letters, digits, spaces, dots or dashes')
      .optional(),
  ),
  // Off (empty) by default: the console then draws the user's initial and contacts no avatar
  // service. Set, an http(s) URL template whose {hash} is the SHA-256 of the user's e-mail address.
  FLOTILLA_AVATAR_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .refine((value) => value.includes('{hash}'), 'must contain {hash}')
      .optional(),
  ),
  FLOTILLA_LOG_RETENTION: z.coerce.number().int().min(1).max(100_000).default(1000),
  FLOTILLA_METRICS_RETENTION_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  FLOTILLA_CONTACT_FLUSH_INTERVAL_MS: z.coerce.number().int().min(50).max(10_000).default(1000),
  FLOTILLA_NOTIFICATION_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  FLOTILLA_DEMO: z.enum(['on', 'off']).default('on'),
  FLOTILLA_BILLING: z.enum(['on', 'off']).default('off'),
  FLOTILLA_NEWSLETTER: z.enum(['on', 'off']).default('off'),
  ...rateLimitEnv,
  FLOTILLA_SIGNUP: z.enum(signupModes).default('open'),
  FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS: z.coerce.number().int().min(1).max(8760).default(168),
  FLOTILLA_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  FLOTILLA_DEVICE_AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(1800),
  FLOTILLA_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if (parsed === undefined) context.addIssue({ code: 'custom', message: trustProxyProblem });
      return parsed ?? false;
    }),
  FLOTILLA_RECAPTCHA_SITE_KEY: optionalText,
  FLOTILLA_RECAPTCHA_SECRET: optionalText,
  FLOTILLA_RECAPTCHA_VERIFY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(defaultRecaptchaVerifyUrl),
  FLOTILLA_GITHUB_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(defaultGithubApiUrl),
  FLOTILLA_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(5000),
  FLOTILLA_ODATA_CACHE: z.enum(['on', 'off']).default('on'),
  FLOTILLA_ODATA_CACHE_SIZE: z.coerce.number().int().min(1).max(100_000).default(500),
  FLOTILLA_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  FLOTILLA_LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  ...helpLinksEnv,
  // An external status page that replaces the built-in one (/status); unset: the built-in one.
  FLOTILLA_STATUS_PAGE_URL: linkUrl,
  // First-party usage counts (features/analytics); off unless chosen, and then only for users who
  // accept analytics in the cookie banner.
  FLOTILLA_ANALYTICS: z.enum(['off', 'first-party']).default('off'),
  // A Sentry DSN: recorded errors are also sent there (features/error-reports); unset: built-in only.
  FLOTILLA_SENTRY_DSN: linkUrl,
  FLOTILLA_CORS_ORIGINS: z.string().default('*'),
  ...codeHostEnv,
  ...prometheusEnv,
  ...plausibleEnv,
  ...chatWidgetEnv,
  ...stripeEnv,
  ...serviceAgreementEnv,
  ...auditLogEnv,
  ...deviceLogEnv,
  ...socialAuthEnv,
  ...helpDeskEnv,
  ...webhooksEnv,
  ...readReplicaEnv,
  ...messageBusEnv,
  FLOTILLA_SERVE_SOURCE_MAPS: z.enum(['on', 'off']).default('off'),
  FLOTILLA_CONSOLE_DIR: z.string().min(1).optional(),
  FLOTILLA_REGISTRY_URL: linkUrl,
  FLOTILLA_EMBEDDED_REGISTRY: z.enum(['off', 'auto', 'on']).default('off'),
  FLOTILLA_EMBEDDED_REGISTRY_PORT: z.coerce.number().int().min(1).max(65535).default(5055),
  FLOTILLA_EMBEDDED_REGISTRY_BINARY: z.string().min(1).default('/usr/bin/docker-registry'),
  FLOTILLA_REGISTRY_TOKEN_ISSUER: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().trim().min(1).max(200).default('flotilla'),
  ),
  FLOTILLA_SMTP_URL: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  FLOTILLA_MAIL_FROM: z.string().trim().min(3).max(320).default('Flotilla <flotilla@localhost>'),
  FLOTILLA_PUBLIC_URL: linkUrl,
  ...builderEnv,
  FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .transform((value, context) => {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
      // The console applies the list too, so it is read by the rule the console uses.
      if (!entries.every((entry) => parseIpNetwork(entry) !== undefined)) {
        context.addIssue({
          code: 'custom',
          message: 'must be a comma-separated list of IP addresses or CIDR ranges',
        });
      }
      return entries;
    }),
  FLOTILLA_REQUIRE_EMAIL_VERIFICATION: z.enum(['on', 'off']).optional(),
});

// reCAPTCHA v2 (the sign-up captcha); unset = the built-in verifier that accepts every answer.
export type RecaptchaConfig = { siteKey: string; secret: string; verifyUrl: string };

// The account routes' rate limits live beside this file (rate-limits.ts).
export type Config = RateLimitConfig &
  BuilderConfig & {
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
    // Public device URLs are `<uuid>.<deviceUrlsBase>` (features/device-url); undefined =
    // `localhost:<the port the server listens on>` (deviceUrlsBaseOf).
    deviceUrlsBase: string | undefined;
    // The console's map tiles (Leaflet URL template, empty for none) and their attribution.
    mapTiles: { url: string; attribution: string };
    // The installation's tag ("staging"): page titles carry it and the console stripes its
    // navigation, so that it is not taken for production. Undefined: none.
    deploymentTag: string | undefined;
    // The avatar service's URL template ({hash}: SHA-256 of the e-mail address), or null: off.
    avatarUrl: string | null;
    // An external status page (FLOTILLA_STATUS_PAGE_URL) the console links to instead of /status.
    statusPageUrl: string | null;
    // FLOTILLA_ANALYTICS: whether the console counts page and feature use (with consent).
    analytics: 'off' | 'first-party';
    // Where the counted uses are also sent (plausible.ts); undefined: nowhere.
    plausible: PlausibleConfig;
    // The support drawer's chat widget (chat-widget.ts); undefined: the help desk is the way in.
    chatWidget: ChatWidgetConfig | undefined;
    // Card payments (stripe.ts); undefined: the manual provider, invoices paid by bank transfer.
    stripe: StripeConfig | undefined;
    // The service agreement the billing page links to (service-agreement.ts); null: no link.
    serviceAgreementUrl: string | null;
    // FLOTILLA_SENTRY_DSN: where errors are forwarded besides the built-in store (never logged).
    sentryDsn: string | undefined;
    // Who may create an account at POST /user/register: anyone, only invitees (with the token of a
    // pending invitation, for its e-mail), or nobody (accounts come from administrators).
    signup: SignupMode;
    // Hours a message stays in the outbox (the mail_message table) before it is swept.
    mailOutboxRetentionHours: number;
    trustProxy: TrustProxy;
    // Longest a resolved session token or API key is reused without a change being reported
    // (infra/auth/actor-cache.ts); 0 resolves every request from the database.
    authCacheSeconds: number;
    // The same for device API keys: longer than a device's poll interval, so that a steady poll
    // reads nothing from the database.
    deviceAuthCacheSeconds: number;
    recaptcha: RecaptchaConfig | undefined;
    // Where SSH keys are imported from: GitHub's API (its /users/:name/keys).
    githubApiUrl: string;
    // Where repository URLs and their balena.yml are looked up (code-host.ts).
    codeHost: CodeHostConfig;
    // Who may scrape /metrics and how many fleets get series of their own (prometheus.ts).
    prometheus: PrometheusConfig;
    // Where webhook deliveries may go and how long each may take (webhooks.ts).
    webhooks: WebhooksConfig;
    // A read replica for heavy console reads and its staleness bound (read-replica.ts).
    readReplica: ReadReplicaConfig;
    // The bus between server processes: NATS or PostgreSQL's NOTIFY (message-bus.ts).
    messageBus: MessageBusConfig;
    // How long audit records are kept (audit-log.ts).
    auditLog: AuditLogConfig;
    // GitHub and Google sign-in (social-auth.ts); a provider is undefined when not configured.
    socialAuth: SocialAuthConfig;
    // Where support tickets go (help-desk.ts).
    helpDesk: HelpDeskConfig;
    // Longest a /v7 request's database statement may run before it is cancelled (400).
    statementTimeoutMs: number;
    // Compiled /v7 reads kept by request shape and run as prepared statements
    // (infra/odata/statement-cache.ts): on/off and how many shapes the process keeps.
    odataCache: { enabled: boolean; size: number };
    // Log lines kept per device.
    logRetention: number;
    // Days of log lines kept (device-logs.ts).
    deviceLogs: DeviceLogConfig;
    // Hours of metric readings kept per device (features/device-metrics).
    metricsRetentionHours: number;
    // How often device contacts recorded in memory are written (features/heartbeat).
    contactFlushIntervalMs: number;
    // How often the notification connection checks itself (a heartbeat not back when the next is
    // due drops it, so a connection that died silently is noticed; infra/db/notification-bus.ts).
    notificationHeartbeatMs: number;
    // Create the demo organization and fleets at start (npm start's demo).
    demo: boolean;
    // Whether this installation bills for devices or sends a newsletter: a self-hosted server
    // does neither unless its operator says so, and the console keeps quiet about them.
    billingEnabled: boolean;
    newsletterEnabled: boolean;
    logLevel: z.infer<typeof schema>['FLOTILLA_LOG_LEVEL'];
    // auto: human-readable on a terminal, JSON lines otherwise.
    logFormat: z.infer<typeof schema>['FLOTILLA_LOG_FORMAT'];
    helpLinks: HelpLinks;
    // The operator's image registry (FLOTILLA_REGISTRY_URL): where balena deploy pushes images and
    // devices pull them, with tokens from GET /auth/v1/token. `host` is host[:port] as image
    // names carry it. Unset: image locations use a placeholder host.
    registry: { url: string; host: string } | undefined;
    // The `iss` of registry tokens; the registry's `auth.token.issuer` must say the same.
    registryTokenIssuer: string;
    // A registry this process runs itself when no FLOTILLA_REGISTRY_URL is set
    // (infra/registry/embedded-registry.ts): `on` fails the start without its binary, `auto` goes
    // on without a registry. Undefined: none.
    embeddedRegistry: { mode: 'auto' | 'on'; port: number; binary: string } | undefined;
    // Where mail goes: an SMTP server, or (unset) the built-in outbox (features/mail).
    smtpUrl: string | undefined;
    // The sender of every message ("Name <address>" or an address).
    mailFrom: string;
    // The console's address in links sent by mail; undefined = the address the server listens on.
    publicUrl: string | undefined;
    // Networks `balena login --web` may wait on besides loopback and the private ranges
    // (shared/auth/cli-login-target.ts); the console reads them from GET /config.
    cliLoginAllowedNetworks: string[];
    // Self-registered users must verify their e-mail address, and a changed
    // address waits for its verification. Default: on when SMTP is configured, else off.
    requireEmailVerification: boolean;
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
  if (
    (values.FLOTILLA_RECAPTCHA_SITE_KEY === undefined) !==
    (values.FLOTILLA_RECAPTCHA_SECRET === undefined)
  ) {
    throw new Error(
      'Invalid configuration: set both FLOTILLA_RECAPTCHA_SITE_KEY and FLOTILLA_RECAPTCHA_SECRET, or neither',
    );
  }
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
    mapTiles: { url: values.FLOTILLA_MAP_TILE_URL, attribution: values.FLOTILLA_MAP_ATTRIBUTION },
    deploymentTag: values.FLOTILLA_DEPLOYMENT_TAG,
    avatarUrl: values.FLOTILLA_AVATAR_URL ?? null,
    statusPageUrl: values.FLOTILLA_STATUS_PAGE_URL ?? null,
    analytics: values.FLOTILLA_ANALYTICS,
    plausible: plausibleConfigOf(values),
    chatWidget: chatWidgetConfigOf(values),
    stripe: stripeConfigOf(values),
    serviceAgreementUrl: serviceAgreementUrlOf(values),
    sentryDsn: values.FLOTILLA_SENTRY_DSN,
    ...rateLimitConfigOf(values),
    signup: values.FLOTILLA_SIGNUP,
    mailOutboxRetentionHours: values.FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS,
    trustProxy: values.FLOTILLA_TRUST_PROXY,
    authCacheSeconds: values.FLOTILLA_AUTH_CACHE_SECONDS,
    deviceAuthCacheSeconds: values.FLOTILLA_DEVICE_AUTH_CACHE_SECONDS,
    recaptcha:
      values.FLOTILLA_RECAPTCHA_SITE_KEY !== undefined &&
      values.FLOTILLA_RECAPTCHA_SECRET !== undefined
        ? {
            siteKey: values.FLOTILLA_RECAPTCHA_SITE_KEY,
            secret: values.FLOTILLA_RECAPTCHA_SECRET,
            verifyUrl: values.FLOTILLA_RECAPTCHA_VERIFY_URL,
          }
        : undefined,
    githubApiUrl: values.FLOTILLA_GITHUB_API_URL.replace(/\/+$/, ''),
    codeHost: codeHostConfigOf(values),
    prometheus: prometheusConfigOf(values),
    webhooks: webhooksConfigOf(values),
    readReplica: readReplicaConfigOf(values),
    messageBus: messageBusConfigOf(values),
    auditLog: auditLogConfigOf(values),
    socialAuth: socialAuthConfigOf(values, values.FLOTILLA_GITHUB_API_URL.replace(/\/+$/, '')),
    helpDesk: helpDeskConfigOf(values),
    statementTimeoutMs: values.FLOTILLA_STATEMENT_TIMEOUT_MS,
    odataCache: {
      enabled: values.FLOTILLA_ODATA_CACHE === 'on',
      size: values.FLOTILLA_ODATA_CACHE_SIZE,
    },
    demo: values.FLOTILLA_DEMO === 'on',
    billingEnabled: values.FLOTILLA_BILLING === 'on',
    newsletterEnabled: values.FLOTILLA_NEWSLETTER === 'on',
    logRetention: values.FLOTILLA_LOG_RETENTION,
    deviceLogs: deviceLogConfigOf(values),
    metricsRetentionHours: values.FLOTILLA_METRICS_RETENTION_HOURS,
    contactFlushIntervalMs: values.FLOTILLA_CONTACT_FLUSH_INTERVAL_MS,
    notificationHeartbeatMs: values.FLOTILLA_NOTIFICATION_HEARTBEAT_MS,
    logLevel: values.FLOTILLA_LOG_LEVEL,
    logFormat: values.FLOTILLA_LOG_FORMAT,
    registry:
      values.FLOTILLA_REGISTRY_URL === undefined
        ? undefined
        : {
            url: values.FLOTILLA_REGISTRY_URL.replace(/\/+$/, ''),
            host: new URL(values.FLOTILLA_REGISTRY_URL).host,
          },
    registryTokenIssuer: values.FLOTILLA_REGISTRY_TOKEN_ISSUER,
    embeddedRegistry:
      values.FLOTILLA_EMBEDDED_REGISTRY === 'off' || values.FLOTILLA_REGISTRY_URL !== undefined
        ? undefined
        : {
            mode: values.FLOTILLA_EMBEDDED_REGISTRY,
            port: values.FLOTILLA_EMBEDDED_REGISTRY_PORT,
            binary: values.FLOTILLA_EMBEDDED_REGISTRY_BINARY,
          },
    helpLinks: helpLinksOf(values),
    smtpUrl: values.FLOTILLA_SMTP_URL,
    mailFrom: values.FLOTILLA_MAIL_FROM,
    publicUrl: values.FLOTILLA_PUBLIC_URL?.replace(/\/+$/, ''),
    ...builderConfigOf(values),
    cliLoginAllowedNetworks: values.FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS,
    requireEmailVerification:
      (values.FLOTILLA_REQUIRE_EMAIL_VERIFICATION ??
        (values.FLOTILLA_SMTP_URL === undefined ? 'off' : 'on')) === 'on',
  };
};
