import type { OutgoingHttpHeaders } from 'node:http';

// The small HTML pages the proxy answers with itself (never the console's shell: these hosts
// are the device's origin). Self-contained: no script, no external resource.

export type DeviceUrlPage = {
  status: number;
  title: string;
  message: string;
};

export const pages = {
  notFound: {
    status: 404,
    title: 'Device URL not found',
    message:
      'No device answers at this address: the device does not exist, or its public device URL is turned off.',
  },
  offline: {
    status: 503,
    title: 'Device offline',
    message:
      'The device is not connected right now. Its public device URL works again once it is back online.',
  },
  unreachable: {
    status: 502,
    title: 'Device web server unreachable',
    message:
      'The device is online, but nothing answered on its web server port (port 80 unless its agent is configured otherwise).',
  },
  timeout: {
    status: 504,
    title: 'Device did not answer in time',
    message: 'The device’s web server took too long to answer.',
  },
  busy: {
    status: 503,
    title: 'Device busy',
    message: 'Too many requests to this device are in progress. Try again in a moment.',
  },
  tooLarge: {
    status: 413,
    title: 'Request too large',
    message: 'The request body is larger than public device URLs accept.',
  },
  badRequest: {
    status: 400,
    title: 'Bad request',
    message: 'The request could not be forwarded to the device.',
  },
} as const satisfies Record<string, DeviceUrlPage>;

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

export const pageHtml = (page: DeviceUrlPage): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(page.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#2a3340}h1{font-size:1.4rem}small{color:#6b7480}</style>
</head><body><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p>
<p><small>${page.status} · served by Flotilla for a public device URL</small></p></body></html>
`;

export const pageHeaders = (page: DeviceUrlPage, body: string): OutgoingHttpHeaders => ({
  'content-type': 'text/html; charset=utf-8',
  'content-length': Buffer.byteLength(body),
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // A page of ours: nothing in it needs anything, so it may load nothing.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  ...(page.status === 503 ? { 'retry-after': '10' } : {}),
});
