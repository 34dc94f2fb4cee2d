import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import {
  type AddressCheck,
  type AddressMessages,
  bareHost,
  checkedAddress,
} from '../builder/pinned-request.js';

// What a receiver answered: its status and the start of its body (kept with the delivery).
export type WebhookAnswer = { status: number; body: string };

export type WebhookRequest = { url: string; headers: Record<string, string>; body: string };

// Sends one delivery; throws when no answer came (refused address, network, timeout).
export type WebhookSend = (request: WebhookRequest) => Promise<WebhookAnswer>;

// How much of a receiver's answer is kept.
export const responseBodyLimit = 1024;

export const resolveAll = async (hostname: string): Promise<readonly string[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

// Why an endpoint URL cannot be used, in the words a webhook's administrator reads.
export const webhookAddressMessages: AddressMessages = {
  protocol: (protocol) =>
    badRequest(`A webhook URL must use http or https, not ${protocol.replace(/:$/, '')}`),
  unresolved: (host) => badRequest(`${host} could not be resolved`),
  noAddress: (host) => badRequest(`${host} has no address`),
  refused: (url, address, refusal) =>
    badRequest(
      `Refusing to deliver to ${url.host}: ${address} is ${refusal}. Webhooks reach only public addresses (the operator can allow networks with FLOTILLA_WEBHOOK_ALLOWED_NETWORKS)`,
    ),
};

const readCapped = async (response: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const data: unknown = chunk;
    if (!Buffer.isBuffer(data)) continue;
    chunks.push(data);
    size += data.length;
    if (size >= responseBodyLimit) {
      response.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, responseBodyLimit);
};

const post = (
  url: URL,
  address: string,
  request: WebhookRequest,
  signal: AbortSignal,
): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const host = bareHost(url);
    const outgoing = (secure ? httpsRequest : httpRequest)(
      {
        host: address,
        port: Number(url.port) || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...request.headers,
          host: url.host,
          'user-agent': 'Flotilla-Webhooks',
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
        },
        ...(secure && isIP(host) === 0 ? { servername: host } : {}),
        agent: false,
        signal,
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });

// POSTs to the endpoint's URL at an address checked against the guard (the request goes to that
// address, so a second DNS answer is never asked for); redirects are not followed (a 3xx is an
// answer like any other non-2xx).
export const createWebhookSender =
  (check: AddressCheck, timeoutMs: number): WebhookSend =>
  async (request) => {
    const url = new URL(request.url);
    const address = await checkedAddress(url, check, webhookAddressMessages);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const response = await post(url, address, request, controller.signal);
      return { status: response.statusCode ?? 0, body: await readCapped(response) };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (controller.signal.aborted) throw new Error(`No answer within ${timeoutMs / 1000} s`);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
