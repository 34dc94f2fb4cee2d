import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startHaproxyProcess } from './haproxy-process.js';

// Debian's HAProxy in front of Flotilla processes, configured by the shipped
// deploy/haproxy-flotilla.cfg with only its addresses replaced: the listening address by a free
// loopback port, the admin socket by one of the test's, and the example servers by the test's
// processes (as many as the file names). What the documentation shows is what the test runs.

export const haproxyFile = path.resolve(
  import.meta.dirname,
  '../../../../deploy/haproxy-flotilla.cfg',
);

export type FlotillaHaproxy = {
  url: string;
  // One runtime API command (`show stat`...); resolves with its answer.
  command(line: string): Promise<string>;
  // `show stat` by proxy and server name ("flotilla/flotilla1", "flotilla/BACKEND"): its columns.
  stats(): Promise<Map<string, Record<string, string>>>;
  close(): Promise<void>;
};

const serverLine = /^(\s*server\s+\S+\s+)\S+(.*)$/;

export const flotillaHaproxyConfig = (
  shipped: string,
  port: number,
  socket: string,
  backends: readonly number[],
): string => {
  let next = 0;
  const lines = shipped.split('\n').map((line) => {
    if (/^\s*bind\s/.test(line)) return `  bind 127.0.0.1:${port}`;
    if (/^\s*stats socket\s/.test(line))
      return line.replace(/stats socket \S+/, `stats socket ${socket}`);
    const server = serverLine.exec(line);
    if (!server) return line;
    const backend = backends[next++];
    if (backend === undefined) throw new Error('deploy/haproxy-flotilla.cfg names more servers');
    return `${server[1]}127.0.0.1:${backend}${server[2]}`;
  });
  if (next !== backends.length) {
    throw new Error(`deploy/haproxy-flotilla.cfg names ${next} servers, not ${backends.length}`);
  }
  return lines.join('\n');
};

export const startFlotillaHaproxy = async (
  backends: readonly number[],
): Promise<FlotillaHaproxy> => {
  const shipped = await readFile(haproxyFile, 'utf8');
  const haproxy = await startHaproxyProcess((port, socket) =>
    flotillaHaproxyConfig(shipped, port, socket, backends),
  );
  const stats = async (): Promise<Map<string, Record<string, string>>> => {
    const [header = '', ...rows] = (await haproxy.command('show stat')).split('\n');
    const names = header.replace(/^# /, '').split(',');
    return new Map(
      rows.map((row) => {
        const values = row.split(',');
        const record = Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
        return [`${record.pxname}/${record.svname}`, record];
      }),
    );
  };
  return {
    url: `http://127.0.0.1:${haproxy.port}`,
    command: haproxy.command,
    stats,
    close: haproxy.close,
  };
};
