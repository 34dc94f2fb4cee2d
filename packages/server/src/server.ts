import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { AppContext } from './app-context.js';
import { registerAgentPackage } from './features/agent-package/register-agent-package.js';
import { registerApiKeys } from './features/api-keys/register-api-keys.js';
import { registerAuth } from './features/auth/register-auth.js';
import { registerConfigRoutes } from './features/config/register-config-routes.js';
import { registerDocs } from './features/docs/register-docs.js';
import { registerDeviceTypes } from './features/device-types/register-device-types.js';
import { registerConsole } from './features/console/register-console.js';
import { registerDownloadConfig } from './features/device-config/register-download-config.js';
import { registerCloudlink } from './features/cloudlink/register-cloudlink.js';
import { registerDeviceActions } from './features/device-actions/register-device-actions.js';
import { registerDiagnostics } from './features/diagnostics/register-diagnostics.js';
import { registerDeviceLogs } from './features/device-logs/register-device-logs.js';
import { registerDeviceState } from './features/device-state/register-device-state.js';
import { registerDeviceRegistration } from './features/devices/register-device.js';
import { registerFleetHooks } from './features/fleets/fleet-hooks.js';
import { registerHealth } from './features/health/register-health.js';
import { registerHeartbeat } from './features/heartbeat/register-heartbeat.js';
import { registerMembershipHooks } from './features/memberships/membership-hooks.js';
import { registerOrganizationHooks } from './features/organizations/organization-hooks.js';
import { registerTerminal } from './features/terminal/register-terminal.js';
import { registerUserHooks } from './features/users/user-hooks.js';
import { registerVariableHooks } from './features/variables/variable-hooks.js';
import { createActorResolution } from './infra/auth/actor-resolution.js';
import { createApp } from './infra/http/create-app.js';
import { registerNotificationBus } from './infra/http/register-notification-bus.js';
import { resolveLogFormat } from './infra/logging/logger-options.js';
import { registerODataRoutes } from './infra/odata/register-odata-routes.js';

export type ServerObservers = {
  // Sees every route as it is registered (the hostile-request fuzz test enumerates them).
  onRoute?: (route: { method: HTTPMethods | HTTPMethods[]; url: string }) => void;
};

// The composition root: every feature is registered here, explicitly, in one place.
export const buildServer = (ctx: AppContext, observers: ServerObservers = {}): FastifyInstance => {
  registerOrganizationHooks(ctx.hooks);
  registerFleetHooks(ctx.hooks);
  registerVariableHooks(ctx.hooks);
  registerMembershipHooks(ctx.hooks);
  registerUserHooks(ctx.hooks);

  const actors = createActorResolution(ctx);
  const app = createApp({
    resolveActor: actors.resolveActor,
    logLevel: ctx.config.logLevel,
    trustProxy: ctx.config.trustProxy,
    corsOrigins: ctx.config.corsOrigins,
    logFormat: resolveLogFormat(ctx.config.logFormat),
  });
  if (observers.onRoute) app.addHook('onRoute', observers.onRoute);
  registerNotificationBus(app, ctx.notifications);
  actors.attach(app, ctx.notifications);
  registerHealth(app, ctx);
  registerAuth(app, ctx);
  registerApiKeys(app, ctx);
  registerConfigRoutes(app, ctx);
  registerDocs(app);
  registerAgentPackage(app);
  registerDeviceTypes(app, ctx);
  registerDeviceRegistration(app, ctx);
  registerDownloadConfig(app, ctx);
  registerHeartbeat(app, ctx);
  registerDeviceState(app, ctx);
  registerDeviceLogs(app, ctx);
  const cloudlink = registerCloudlink(app, ctx);
  registerDeviceActions(app, ctx, cloudlink);
  registerDiagnostics(app, ctx, cloudlink);
  registerTerminal(app, ctx, cloudlink, actors.resolveActor);
  registerODataRoutes(app, ctx);
  registerConsole(app, {
    dir: ctx.config.consoleDir,
    serveSourceMaps: ctx.config.serveSourceMaps,
  });
  return app;
};
