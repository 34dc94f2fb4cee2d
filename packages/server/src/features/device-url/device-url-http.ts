import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { returnedResponseHeaders } from './device-url-headers.js';
import type { DeviceUrlLimits } from './device-url-limits.js';
import { type DeviceUrlPage, pageHeaders, pageHtml, pages } from './device-url-pages.js';
import {
  declaredTooLarge,
  failurePage,
  forwardBody,
  type TunnelOpener,
} from './device-url-proxy.js';

const sendPage = (response: ServerResponse, page: DeviceUrlPage): void => {
  if (response.headersSent) {
    // The device's answer had begun: cutting it is the only honest signal left.
    response.destroy();
    return;
  }
  const body = pageHtml(page);
  response.writeHead(page.status, pageHeaders(page, body));
  response.end(body);
};

// One HTTP request to a public device URL: forwarded over a tunnel with its body, the device's
// answer streamed back as it comes (flow-controlled by the tunnel).
export const serveDeviceUrlRequest = (
  open: TunnelOpener,
  limits: DeviceUrlLimits,
  log: FastifyBaseLogger,
) => {
  const serve = async (
    request: IncomingMessage,
    response: ServerResponse,
    uuid: string,
  ): Promise<void> => {
    if (declaredTooLarge(request, limits.maxBodyBytes)) {
      request.resume();
      sendPage(response, pages.tooLarge);
      return;
    }
    const opened = await open(request, uuid, undefined);
    if (!('upstream' in opened)) {
      request.resume();
      sendPage(response, opened);
      return;
    }
    const { upstream, tunnel } = opened;
    // The browser went away while the tunnel opened: nobody to answer.
    if (request.socket.destroyed) {
      tunnel.destroy();
      return;
    }
    let failed = false;
    const fail = (page: DeviceUrlPage): void => {
      if (failed) return;
      failed = true;
      tunnel.destroy();
      sendPage(response, page);
    };
    upstream.on('error', (error) => fail(failurePage(error)));
    upstream.on('response', (answer) => {
      // Already answered with a page (a body over the limit): the device's answer is dropped.
      if (failed) {
        answer.resume();
        return;
      }
      response.writeHead(answer.statusCode ?? 502, returnedResponseHeaders(answer.headers));
      answer.pipe(response);
      answer.on('error', () => response.destroy());
    });
    // The browser went away: the device's connection goes too.
    response.on('close', () => {
      if (!response.writableFinished) tunnel.destroy();
    });
    forwardBody(request, upstream, limits.maxBodyBytes, () => fail(pages.tooLarge));
  };
  return (request: IncomingMessage, response: ServerResponse, uuid: string): void => {
    serve(request, response, uuid).catch((error: unknown) => {
      log.error({ err: error }, 'device url: request failed');
      sendPage(response, pages.offline);
    });
  };
};
