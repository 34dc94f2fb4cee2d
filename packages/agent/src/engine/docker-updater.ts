import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import type { UpdaterEngine } from '../runtime/host-os-updater.js';
import { pullImage } from './docker-engine.js';

// The host OS updater on Docker's API (balena-engine, Docker, Podman's socket): pulled
// anonymously (the catalogue names a public image), run privileged in the host's network and PID
// namespace, its output followed line by line, removed once it ended.

const updaterName = 'flotilla-os-updater';

const lines = (onLine: (line: string) => void): PassThrough => {
  const out = new PassThrough();
  let rest = '';
  out.setEncoding('utf8');
  out.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) onLine(part);
  });
  out.on('end', () => {
    if (rest !== '') onLine(rest);
  });
  return out;
};

export const dockerUpdaterEngine = (socketPath: string): UpdaterEngine => {
  const docker = new Docker({ socketPath });
  return {
    pull: (image, onProgress) => pullImage(docker, image, null, onProgress),
    async run(spec, onLine) {
      // One left over from an update the agent did not see end (a restart) goes first.
      await docker
        .getContainer(updaterName)
        .remove({ force: true })
        .catch(() => undefined);
      const container = await docker.createContainer({
        name: updaterName,
        Image: spec.image,
        Env: Object.entries(spec.environment).map(([name, value]) => `${name}=${value}`),
        Labels: { 'io.flotilla.os-updater': '1' },
        HostConfig: {
          Privileged: true,
          NetworkMode: 'host',
          PidMode: 'host',
          Binds: [...spec.binds],
        },
      });
      try {
        const stream = await container.attach({ stream: true, stdout: true, stderr: true });
        const stdout = lines((line) => onLine(line, false));
        const stderr = lines((line) => onLine(line, true));
        container.modem.demuxStream(stream, stdout, stderr);
        const ended = container.wait();
        await container.start();
        const result: unknown = await ended;
        stdout.end();
        stderr.end();
        return typeof result === 'object' &&
          result !== null &&
          'StatusCode' in result &&
          typeof result.StatusCode === 'number'
          ? result.StatusCode
          : 1;
      } finally {
        await container.remove({ force: true }).catch(() => undefined);
      }
    },
  };
};
