import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { divertHosts } from '../../infra/http/host-diversion.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { deviceUrlHostMatcher, deviceUrlsBaseOf } from './device-url-host.js';
import { serveDeviceUrlRequest } from './device-url-http.js';
import { type DeviceUrlLimits, defaultDeviceUrlLimits } from './device-url-limits.js';
import { pageHeaders, pageHtml, pages } from './device-url-pages.js';
import { createTunnelOpener } from './device-url-proxy.js';
import { serveDeviceUrlUpgrade } from './device-url-upgrade.js';

// A claim that names no device (not a uuid under the base): answered with the 404 page.
const noDevice = '';

// Test harnesses tighten the limits of an app server.ts already registered this on.
const registered = new WeakMap<FastifyInstance, DeviceUrlLimits>();

// Public device URLs: `http(s)://<uuid>.<deviceUrlsBase>` on the app's own port
// is a reverse proxy to port 80 of the device, tunnelled over its cloudlink, while the device's
// public URL is on (is_web_accessible). Every other host is the app's.
// Registration is idempotent per app (a repeated call only applies its limits).
export const registerDeviceUrl = (
  app: FastifyInstance,
  ctx: AppContext,
  cloudlink: Pick<Cloudlink, 'openTerminal'>,
  overrides: Partial<DeviceUrlLimits> = {},
): void => {
  const existing = registered.get(app);
  if (existing) {
    Object.assign(existing, overrides);
    return;
  }
  // Read per request, so a later registration's overrides apply.
  const limits: DeviceUrlLimits = { ...defaultDeviceUrlLimits, ...overrides };
  registered.set(app, limits);
  // Ports are not compared, so the base's host name is known before the server listens.
  const match = deviceUrlHostMatcher(deviceUrlsBaseOf(ctx.config.deviceUrlsBase, []));
  const open = createTunnelOpener({ db: ctx.db, cloudlink, limits, log: app.log });
  const serveRequest = serveDeviceUrlRequest(open, limits, app.log);
  const serveUpgrade = serveDeviceUrlUpgrade(open, app.log);
  divertHosts(app, {
    claim(request) {
      const host = match(request.headers.host);
      if (host.kind === 'app') return undefined;
      return host.kind === 'device' ? host.uuid : noDevice;
    },
    request(request, response, uuid) {
      if (uuid !== noDevice) {
        serveRequest(request, response, uuid);
        return;
      }
      request.resume();
      const body = pageHtml(pages.notFound);
      response.writeHead(pages.notFound.status, pageHeaders(pages.notFound, body));
      response.end(body);
    },
    upgrade(request, socket, head, uuid) {
      if (uuid === noDevice) {
        socket.destroy();
        return;
      }
      serveUpgrade(request, socket, head, uuid);
    },
  });
};
