import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Shell, ShellIo } from './shell.js';
import { duplexPair, streamShell } from './stream-shell.js';

// The simulator's answer to the public device URL: a small status page per simulated device,
// served by one in-process HTTP server for every device (nothing listens on a port). Each
// tunnel is handed to it as a connection, remembered with the device it belongs to.

export type SimulatedWebStatus = {
  name: string;
  uuid: string;
  deviceType: string;
  release: string | null;
  uptimeMs: number;
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const duration = (ms: number): string => {
  const seconds = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ] as const;
  const shown = parts.filter(([value], index) => value > 0 || index === parts.length - 1);
  return shown.map(([value, unit]) => `${value}${unit}`).join(' ');
};

export const statusPage = (status: SimulatedWebStatus): string => {
  const rows: [string, string][] = [
    ['Device', status.name],
    ['UUID', status.uuid],
    ['Device type', status.deviceType],
    ['Release', status.release ?? 'none yet'],
    ['Uptime', duration(status.uptimeMs)],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(status.name)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem}</style>
</head><body><h1>${escapeHtml(status.name)}</h1><p>A simulated Flotilla device, reached through its public device URL.</p>
<table>${rows.map(([label, value]) => `<tr><th>${label}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
</body></html>
`;
};

const devices = new WeakMap<Duplex, () => SimulatedWebStatus>();

const answer = (request: IncomingMessage, response: ServerResponse): void => {
  const status = devices.get(request.socket);
  request.resume();
  if (!status || (request.method !== 'GET' && request.method !== 'HEAD')) {
    response.writeHead(status ? 405 : 500, { 'content-type': 'text/plain' });
    response.end(status ? 'Only GET here' : 'Unknown device');
    return;
  }
  if (request.url !== '/' && !request.url?.startsWith('/?')) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('Not found on this simulated device');
    return;
  }
  const body = statusPage(status());
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(request.method === 'HEAD' ? undefined : body);
};

let server: ReturnType<typeof createServer> | undefined;

export const openSimulatedWeb = (status: () => SimulatedWebStatus, io: ShellIo): Shell => {
  server ??= createServer(answer);
  const [tunnel, connection] = duplexPair();
  devices.set(connection, status);
  server.emit('connection', connection);
  return streamShell(tunnel, io);
};
