import { lookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import {
  type AddressMessages,
  checkedAddress,
  type ResolveHost,
  sendPinned,
} from './pinned-request.js';
import type { AllowedNetworks } from './url-address-policy.js';

export const resolveWithDns: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export type FetchProjectOptions = {
  allowed: AllowedNetworks;
  resolve: ResolveHost;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  // Progress for the build log.
  onLog?: (line: string) => void;
};

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

const parseUrl = (text: string, base?: URL): URL => {
  try {
    return new URL(text, base);
  } catch {
    throw badRequest(`${text.slice(0, 200)} is not a URL`);
  }
};

// The URL as the log shows it: no credentials, no query (it may carry a token).
const shown = (url: URL): string => `${url.protocol}//${url.host}${url.pathname}`;

const mebibytes = (bytes: number): string => `${bytes / 1024 / 1024} MiB`;

// What a download refused says, in the build log's words.
const downloadMessages: AddressMessages = {
  protocol: (protocol) => badRequest(`Only http and https URLs can be built from, not ${protocol}`),
  unresolved: (host) => badRequest(`The host ${host} of the project URL could not be resolved`),
  noAddress: (host) => badRequest(`The host ${host} of the project URL has no address`),
  refused: (url, address, refusal) =>
    badRequest(
      `Refusing to download from ${url.host}: ${address} is ${refusal}. The builder downloads only from public addresses (the operator can allow networks with FLOTILLA_BUILDER_ALLOWED_NETWORKS)`,
    ),
};

const readBody = async (response: IncomingMessage, maxBytes: number): Promise<Buffer> => {
  const tooLarge = badRequest(`The project is larger than ${mebibytes(maxBytes)}`);
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    const data: unknown = chunk;
    if (!Buffer.isBuffer(data)) continue;
    size += data.length;
    if (size > maxBytes) {
      response.destroy();
      throw tooLarge;
    }
    chunks.push(data);
  }
  return Buffer.concat(chunks);
};

// A project URL whose first hop was checked (its one address resolved and allowed).
export type CheckedUrl = { url: URL; address: string };

// The checks of a project URL that need no download (a URL, http(s), an allowed address), made
// before /v3/buildFromUrl answers so that they stay a synchronous 400.
export const checkProjectUrl = async (
  text: string,
  options: Pick<FetchProjectOptions, 'allowed' | 'resolve'>,
): Promise<CheckedUrl> => {
  const url = parseUrl(text);
  return { url, address: await checkedAddress(url, options, downloadMessages) };
};

// Downloads a project tarball for the builder, guarding the server's own network (see
// url-address-policy.ts): http(s) only, each redirect hop checked like the first, at most
// `maxRedirects` of them, the whole download within `timeoutMs` and `maxBytes`. Every refusal
// is a 400 in words the user can act on. A URL checked already is not resolved a second time.
export const fetchProject = async (
  source: string | CheckedUrl,
  options: FetchProjectOptions,
): Promise<Buffer> => {
  let url = typeof source === 'string' ? parseUrl(source) : source.url;
  let checked = typeof source === 'string' ? undefined : source.address;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const address = checked ?? (await checkedAddress(url, options, downloadMessages));
      checked = undefined;
      options.onLog?.(`Downloading ${shown(url)}`);
      const response = await sendPinned(url, address, controller.signal, 'Flotilla-builder');
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        response.resume();
        if (redirects >= options.maxRedirects) {
          throw badRequest(`The project URL redirects more than ${options.maxRedirects} times`);
        }
        url = parseUrl(location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw badRequest(
          `The project URL answered ${status} ${response.statusMessage ?? ''}`.trimEnd(),
        );
      }
      const body = await readBody(response, options.maxBytes);
      options.onLog?.(`Downloaded ${(body.length / 1024).toFixed(1)} KiB`);
      return body;
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (controller.signal.aborted) {
      throw badRequest(`Downloading the project took longer than ${options.timeoutMs / 1000} s`);
    }
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
    throw badRequest(`Could not download the project from ${url.host} (${code})`);
  } finally {
    clearTimeout(timer);
  }
};
