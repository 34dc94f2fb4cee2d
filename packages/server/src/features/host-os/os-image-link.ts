import type { Readable } from 'node:stream';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import {
  type AddressCheck,
  type AddressMessages,
  checkedAddress,
  sendPinned,
} from '../builder/pinned-request.js';

// Linking an image: the server fetches it once from the URL the administrator gave and keeps it
// as if uploaded. The URL goes through the builder's guard: public addresses only (the
// operator's FLOTILLA_BUILDER_ALLOWED_NETWORKS aside), every redirect hop checked, the
// connection made to the address checked.

const maxRedirects = 5;
// A large image over a slow link still arrives; a stalled one does not hold the request forever.
export const linkTimeoutMs = 60 * 60 * 1000;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

const messages: AddressMessages = {
  protocol: (protocol) => badRequest(`Only http and https URLs can be linked, not ${protocol}`),
  unresolved: (host) => badRequest(`The host ${host} of the image URL could not be resolved`),
  noAddress: (host) => badRequest(`The host ${host} of the image URL has no address`),
  refused: (url, address, refusal) =>
    badRequest(
      `Refusing to download from ${url.host}: ${address} is ${refusal}. The server downloads only from public addresses (the operator can allow networks with FLOTILLA_BUILDER_ALLOWED_NETWORKS)`,
    ),
};

const parseUrl = (text: string, base?: URL): URL => {
  try {
    return new URL(text, base);
  } catch {
    throw badRequest(`${text.slice(0, 200)} is not a URL`);
  }
};

// Opens the image at `text` and hands its body to `keep` (which stores it); refusals are 400s.
export const fetchLinkedImage = async <T>(
  text: string,
  check: AddressCheck,
  keep: (body: Readable) => Promise<T>,
): Promise<T> => {
  let url = parseUrl(text);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), linkTimeoutMs);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const address = await checkedAddress(url, check, messages);
      const response = await sendPinned(url, address, controller.signal, 'Flotilla-os-image');
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirectStatuses.has(status) && location !== undefined) {
        response.resume();
        if (redirects >= maxRedirects) {
          throw badRequest(`The image URL redirects more than ${maxRedirects} times`);
        }
        url = parseUrl(location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw badRequest(
          `The image URL answered ${status} ${response.statusMessage ?? ''}`.trimEnd(),
        );
      }
      return await keep(response);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (controller.signal.aborted) {
      throw badRequest(`Downloading the image took longer than ${linkTimeoutMs / 60_000} minutes`);
    }
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'failed';
    throw badRequest(`Could not download the image from ${url.host} (${code})`);
  } finally {
    clearTimeout(timer);
  }
};
