import type { FastifyInstance, HTTPMethods } from 'fastify';
import { type AppContext, messageBusOf } from './app-context.js';
import { configuredCaptcha, registerAuth } from './features/auth/register-auth.js';
import { registerEmailVerification } from './features/email-verification/register-email-verification.js';
import { verificationMailOf } from './features/email-verification/verification-mail-of.js';
import { registerPasswordReset } from './features/password-reset/register-password-reset.js';
import { registerFeatureHooks } from './feature-hooks.js';
import { registerAgentPackage } from './features/agent-package/register-agent-package.js';
import { registerApiKeys } from './features/api-keys/register-api-keys.js';
import { registerBuilder } from './features/builder/register-builder.js';
import { registerCodeHost } from './features/code-host/register-code-host.js';
import { registerTwoFactor } from './features/two-factor/register-two-factor.js';
import { registerAccount } from './features/account/register-account.js';
import { registerEmailChange } from './features/account/change-email.js';
import { registerAccountDeletion } from './features/account/delete-account.js';
import { registerPublicKeys } from './features/ssh-keys/register-public-keys.js';
import { githubKeys } from './features/ssh-keys/github-keys.js';
import { registerPublicKeyImport } from './features/ssh-keys/import-public-keys.js';
import { registerConfigRoutes } from './features/config/register-config-routes.js';
import { registerDocs } from './features/docs/register-docs.js';
import { registerDeviceTypes } from './features/device-types/register-device-types.js';
import { registerConsole } from './features/console/register-console.js';
import { registerDownloadConfig } from './features/device-config/register-download-config.js';
import type { CloudlinkOptions } from './features/cloudlink/cloudlink-options.js';
import { type Cloudlink, registerCloudlink } from './features/cloudlink/register-cloudlink.js';
import { registerDeviceActions } from './features/device-actions/register-device-actions.js';
import {
  type QueuedActionsOptions,
  registerQueuedActions,
} from './features/queued-actions/register-queued-actions.js';
import {
  type Diagnostics,
  registerDiagnostics,
} from './features/diagnostics/register-diagnostics.js';
import { registerDeviceLogs } from './features/device-logs/register-device-logs.js';
import { registerDeviceMetrics } from './features/device-metrics/register-device-metrics.js';
import { registerDeviceState } from './features/device-state/register-device-state.js';
import { registerDeviceUrl } from './features/device-url/register-device-url.js';
import { registerDeviceRegistration } from './features/devices/register-device.js';
import { registerGitRemote } from './features/git-remote/register-git-remote.js';
import { registerRepositoryRemoval } from './features/git-remote/repository-removal.js';
import { registerHealth } from './features/health/register-health.js';
import { registerPrometheus } from './features/prometheus/register-prometheus.js';
import { buildQueueOf } from './features/builder/build-queue.js';
import { registerHeartbeat } from './features/heartbeat/register-heartbeat.js';
import { registerStatusTallyCompaction } from './features/heartbeat/status-tally-compaction.js';
import { createInvitationSigner } from './features/invitations/invitation-signing.js';
import { registerInvitations } from './features/invitations/register-invitations.js';
import { registerMail } from './features/mail/register-mail.js';
import { registerOAuth } from './features/oauth/register-oauth.js';
import { registerSocialAuth } from './features/social-auth/register-social-auth.js';
import { registerSaml } from './features/sso/register-saml.js';
import { registerPlatformAdmin } from './features/platform-admin/register-platform-admin.js';
import { registerHostOsAdmin } from './features/host-os/register-host-os-admin.js';
import { registerOsImages } from './features/host-os/register-os-images.js';
import { registerActions } from './features/actions/register-actions.js';
import { defaultRegistryHost } from './features/releases/image-location.js';
import { registerStuckBuildSweep } from './features/releases/stuck-build-sweep.js';
import { registerAlerts } from './features/alerts/register-alerts.js';
import {
  type EventStreamOptions,
  registerEventStream,
} from './features/event-stream/register-event-stream.js';
import { registerRegistry } from './features/registry/register-registry.js';
import { registerOrganizationLogo } from './features/organizations/register-organization-logo.js';
import { registerBilling } from './features/billing/register-billing.js';
import { paymentProviderOf } from './features/billing/configured-payment-provider.js';
import { registerBillingAdmin } from './features/billing/register-billing-admin.js';
import { registerBillingCatalogue } from './features/billing/register-billing-catalogue.js';
import { privateSupportGate } from './features/billing/private-support-gate.js';
import { registerReleaseAssets } from './features/release-assets/register-release-assets.js';
import { registerSupport } from './features/support/register-support.js';
import { registerRollouts } from './features/rollouts/register-rollouts.js';
import { registerTerminal } from './features/terminal/register-terminal.js';
import { registerStatus } from './features/status/register-status.js';
import { registerFeatureFlags } from './features/feature-flags/register-feature-flags.js';
import { registerErrorReports } from './features/error-reports/register-error-reports.js';
import { registerAuditLog } from './features/audit-log/register-audit-log.js';
import { registerAnalytics } from './features/analytics/register-analytics.js';
import { registerWebhooks } from './features/webhooks/register-webhooks.js';
import { createActorResolution } from './infra/auth/actor-resolution.js';
import { createApp } from './infra/http/create-app.js';
import { createRateLimiter } from './infra/rate-limit/rate-limiter.js';
import { registerNotificationBus } from './infra/http/register-notification-bus.js';
import { resolveLogFormat } from './infra/logging/logger-options.js';
import { registerBatchRoute } from './infra/odata/register-batch-route.js';
import { registerODataRoutes } from './infra/odata/register-odata-routes.js';

export type ServerOptions = {
  // Sees every route as it is registered (the hostile-request fuzz test enumerates them).
  onRoute?: (route: { method: HTTPMethods | HTTPMethods[]; url: string }) => void;
  // Cloudlink timings other than the defaults (tests shorten heartbeats and timeouts).
  cloudlink?: Partial<CloudlinkOptions>;
  // How often queued device actions are expired and swept (tests shorten it).
  queuedActions?: QueuedActionsOptions;
  // Event stream timings and bounds other than the defaults (tests shorten the heartbeat).
  eventStream?: EventStreamOptions;
  // Where log lines go instead of stdout (tests read the operator's log lines).
  logStream?: { write(line: string): void };
};

// The app and the device links it holds (tests send actions through them).
export type ComposedServer = {
  app: FastifyInstance;
  cloudlink: Cloudlink;
  diagnostics: Diagnostics;
};

// The composition root: every feature is registered here, explicitly, in one place.
export const composeServer = (ctx: AppContext, options: ServerOptions = {}): ComposedServer => {
  const actors = createActorResolution(ctx);
  const app = createApp({
    resolveActor: actors.resolveActor,
    cachedActor: actors.cachedActor,
    logLevel: ctx.config.logLevel,
    trustProxy: ctx.config.trustProxy,
    corsOrigins: ctx.config.corsOrigins,
    logFormat: resolveLogFormat(ctx.config.logFormat),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  registerNotificationBus(app, ctx.notifications);
  if (ctx.bus) registerNotificationBus(app, ctx.bus, ctx.db);
  actors.attach(app, messageBusOf(ctx));
  const invitations = createInvitationSigner(ctx.jwtSecret);
  const verification = verificationMailOf(app, ctx);
  registerFeatureHooks(ctx.hooks, {
    registryHost: ctx.config.registry?.host ?? defaultRegistryHost,
    dataDir: ctx.config.dataDir,
    billingEnabled: ctx.config.billingEnabled,
    paymentProvider: paymentProviderOf(ctx),
    invitations: {
      signer: invitations,
      publicUrl: verification.publicUrl,
      limiter: createRateLimiter(ctx.db, ctx.now),
      invitationsPerHour: ctx.config.invitationRateLimitPerHour,
    },
    verification: { ...verification, limiter: createRateLimiter(ctx.db, ctx.now) },
  });
  const captcha = configuredCaptcha(app, ctx);
  // First, so that its request counters see every route registered after it.
  registerPrometheus(app, {
    config: ctx.config.prometheus,
    query: ctx.db,
    db: ctx.db,
    now: ctx.now,
    notifications: ctx.notifications,
    bus: ctx.bus,
    cloudlinkConnections: () => cloudlink.localConnectionCount(),
    builds: () => buildQueueOf(ctx.config).counts(),
  });
  // Before the routes it records (its onSend hook reaches routes registered after it).
  registerAuditLog(app, ctx);
  registerHealth(app, ctx);
  registerErrorReports(app, ctx);
  registerStatus(app, ctx);
  registerFeatureFlags(app, ctx);
  registerAnalytics(app, ctx);
  registerAuth(app, ctx, { captcha });
  registerEmailVerification(app, ctx, verification);
  registerPasswordReset(app, ctx, { captcha, publicUrl: verification.publicUrl });
  registerTwoFactor(app, ctx);
  registerAccount(app, ctx);
  registerEmailChange(app, ctx, verification);
  registerAccountDeletion(app, ctx);
  registerPublicKeys(app, ctx);
  registerPublicKeyImport(app, ctx, githubKeys(ctx.config.githubApiUrl));
  registerApiKeys(app, ctx);
  registerMail(app, ctx, messageBusOf(ctx));
  registerWebhooks(app, ctx);
  registerEventStream(app, ctx, actors.resolveActor, options.eventStream);
  registerPlatformAdmin(app, ctx);
  registerHostOsAdmin(app, ctx);
  registerOsImages(app, ctx);
  registerActions(app, ctx);
  registerOAuth(app, ctx);
  registerSocialAuth(app, ctx);
  registerSaml(app, ctx);
  registerInvitations(app, ctx, invitations);
  registerOrganizationLogo(app, ctx);
  registerBilling(app, ctx, { captcha });
  registerBillingAdmin(app, ctx);
  registerBillingCatalogue(app, ctx);
  registerReleaseAssets(app, ctx);
  registerSupport(app, ctx, { paidPlanGate: privateSupportGate(ctx) });
  registerConfigRoutes(app, ctx);
  registerDocs(app);
  registerAgentPackage(app);
  registerDeviceTypes(app, ctx);
  registerDeviceRegistration(app, ctx);
  registerDownloadConfig(app, ctx);
  registerHeartbeat(app, ctx);
  registerStatusTallyCompaction(app, ctx);
  registerDeviceState(app, ctx);
  registerDeviceLogs(app, ctx);
  registerDeviceMetrics(app, ctx);
  const cloudlink = registerCloudlink(app, ctx, options.cloudlink);
  registerDeviceActions(app, ctx, cloudlink);
  registerQueuedActions(app, ctx, cloudlink, options.queuedActions);
  const diagnostics = registerDiagnostics(app, ctx, cloudlink);
  registerRollouts(app, ctx, { requestChecks: (ids) => diagnostics.requestChecks(ids) });
  registerTerminal(app, ctx, cloudlink, actors.resolveActor);
  registerDeviceUrl(app, ctx, cloudlink);
  registerBatchRoute(app, ctx, registerODataRoutes(app, ctx));
  registerBuilder(app, ctx);
  registerCodeHost(app, ctx);
  registerStuckBuildSweep(app, ctx);
  registerAlerts(app, ctx);
  registerGitRemote(app, ctx, { resolveActor: actors.resolveActor });
  registerRepositoryRemoval(app, ctx);
  registerRegistry(app, ctx, { resolveActor: actors.resolveActor });
  registerConsole(app, {
    dir: ctx.config.consoleDir,
    serveSourceMaps: ctx.config.serveSourceMaps,
    cliLoginAllowedNetworks: ctx.config.cliLoginAllowedNetworks,
    mapTileUrl: ctx.config.mapTiles.url,
    avatarUrl: ctx.config.avatarUrl,
    chatWidgetUrl: ctx.config.chatWidget?.url ?? null,
    cardPayments: ctx.config.billingEnabled && ctx.config.stripe !== undefined,
    recaptcha: ctx.config.recaptcha !== undefined,
  });
  return { app, cloudlink, diagnostics };
};

export const buildServer = (ctx: AppContext, options: ServerOptions = {}): FastifyInstance =>
  composeServer(ctx, options).app;
