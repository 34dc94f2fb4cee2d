import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import {
  type AddressMessages,
  checkedAddress,
  type ResolveHost,
  sendPinned,
} from '../builder/pinned-request.js';
import type { AllowedNetworks } from '../builder/url-address-policy.js';

export type CodeHostFetchOptions = {
  allowed: AllowedNetworks;
  resolve: ResolveHost;
  timeoutMs: number;
};

// What the code host answered: its status and (for 2xx) the body as text.
export type CodeHostAnswer = { status: number; body: string };

// A balena.yml or a repository's JSON is small; anything larger is not what was asked for.
const maxBytes = 512 * 1024;
const maxRedirects = 3;
const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export const codeHostUnavailable = (detail: string): ApiError =>
  new ApiError('service_unavailable', `Failed retrieving data from the code host (${detail})`);

// What a refused lookup says, in the create dialog's words.
const lookupMessages: AddressMessages = {
  protocol: (protocol) =>
    badRequest(`The code host can only be reached over http or https, not ${protocol}`),
  unresolved: (host) => codeHostUnavailable(`${host} could not be resolved`),
  noAddress: (host) => codeHostUnavailable(`${host} has no address`),
  refused: (url, address, refusal) =>
    badRequest(
      `Refusing to contact ${url.host}: ${address} is ${refusal}. Code-host lookups reach only public addresses (the operator can allow networks with FLOTILLA_CODE_HOST_ALLOWED_NETWORKS)`,
    ),
};

const readText = async (response: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const data: unknown = chunk;
    if (!Buffer.isBuffer(data)) continue;
    size += data.length;
    if (size > maxBytes) {
      response.destroy();
      throw codeHostUnavailable('the answer is too large');
    }
    chunks.push(data);
  }
  return Buffer.concat(chunks).toString('utf8');
};

// GET on the code host without credentials: each redirect hop checked like the first, the whole
// lookup within `timeoutMs`. A 4xx or 5xx is returned (the caller knows what a 404 means); an
// address refused is a 400, no answer in time or a broken connection a 503.
export const codeHostGet = async (
  target: URL,
  options: CodeHostFetchOptions,
): Promise<CodeHostAnswer> => {
  let url = target;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const address = await checkedAddress(url, options, lookupMessages);
      const response = await sendPinned(url, address, controller.signal, 'Flotilla');
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        response.resume();
        if (redirects >= maxRedirects) throw codeHostUnavailable('too many redirects');
        url = new URL(location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        return { status, body: '' };
      }
      return { status, body: await readText(response) };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (controller.signal.aborted) {
      throw codeHostUnavailable(`no answer within ${options.timeoutMs / 1000} s`);
    }
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
    throw codeHostUnavailable(`${url.host}: ${code}`);
  } finally {
    clearTimeout(timer);
  }
};
