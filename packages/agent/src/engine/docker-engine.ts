import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import {
  configHashLabel,
  type ContainerEngine,
  type ContainerSpec,
  type ManagedContainer,
  type RegistryAuth,
  managedLabel,
  serviceIdLabel,
  serviceNameLabel,
} from './container-engine.js';
import { createOptionsOf, networkOptionsOf } from './docker-create-options.js';

// Where the engine listens, in the order the agent looks: DOCKER_HOST (unix:// only), then
// balena-engine's socket, then Docker's (Podman's compatible socket is reached through
// DOCKER_HOST).
export const engineSocketCandidates = (env: NodeJS.ProcessEnv): string[] => {
  const fromEnv = env.DOCKER_HOST?.startsWith('unix://') ? [env.DOCKER_HOST.slice(7)] : [];
  return [...fromEnv, '/var/run/balena-engine.sock', '/var/run/docker.sock'];
};

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' &&
  error !== null &&
  'statusCode' in error &&
  typeof error.statusCode === 'number'
    ? error.statusCode
    : undefined;

const states: readonly ManagedContainer['state'][] = [
  'created',
  'running',
  'restarting',
  'paused',
  'exited',
  'dead',
  'removing',
];
const stateOf = (value: string): ManagedContainer['state'] =>
  states.find((state) => state === value) ?? 'dead';

// "Exited (137) 2 minutes ago" → 137.
const exitCodeOf = (status: string): number | null => {
  const match = /^Exited \((-?\d+)\)/.exec(status);
  return match?.[1] === undefined ? null : Number(match[1]);
};

type ProgressEvent = {
  id?: string;
  status?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
};

// "Up 2 minutes (healthy)", "Up 3 seconds (health: starting)" → the health check's word.
const healthOf = (status: string): ManagedContainer['health'] => {
  const match = /\((healthy|unhealthy|health: starting)\)/.exec(status);
  if (!match) return undefined;
  return match[1] === 'healthy' ? 'healthy' : match[1] === 'unhealthy' ? 'unhealthy' : 'starting';
};

// Docker's API through dockerode, on a unix socket.
// Pulls an image (with credentials, or anonymously), reporting the layers' download as 0–100.
export const pullImage = async (
  docker: Docker,
  reference: string,
  auth: RegistryAuth | null,
  onProgress: (percent: number) => void,
): Promise<void> => {
  const stream = await docker.pull(reference, auth === null ? {} : { authconfig: auth });
  const layers = new Map<string, { current: number; total: number }>();
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, events: ProgressEvent[]) => {
        const failed = events.find((event) => event.error !== undefined);
        if (error) reject(error);
        else if (failed?.error !== undefined) reject(new Error(failed.error));
        else resolve();
      },
      (event: ProgressEvent) => {
        if (event.id === undefined) return;
        const total = event.progressDetail?.total;
        if (event.status === 'Downloading' && total !== undefined && total > 0) {
          layers.set(event.id, { current: event.progressDetail?.current ?? 0, total });
        } else if (event.status === 'Download complete' || event.status === 'Pull complete') {
          const layer = layers.get(event.id);
          if (layer) layer.current = layer.total;
        }
        let current = 0;
        let sum = 0;
        for (const layer of layers.values()) {
          current += layer.current;
          sum += layer.total;
        }
        if (sum > 0) onProgress(Math.min(100, Math.floor((current / sum) * 100)));
      },
    );
  });
  onProgress(100);
};

export const dockerEngine = (socketPath: string): ContainerEngine => {
  const docker = new Docker({ socketPath });
  return {
    async ping() {
      await docker.ping();
    },
    async hasImage(reference) {
      try {
        await docker.getImage(reference).inspect();
        return true;
      } catch (error) {
        if (statusOf(error) === 404) return false;
        throw error;
      }
    },
    async pull(reference, auth, onProgress) {
      await pullImage(docker, reference, auth, onProgress);
    },
    async removeImage(reference) {
      try {
        await docker.getImage(reference).remove();
      } catch (error) {
        // Gone already, or still used by a container the agent does not manage: left alone.
        if (statusOf(error) !== 404 && statusOf(error) !== 409) throw error;
      }
    },
    async ensureVolume(name) {
      try {
        await docker.getVolume(name).inspect();
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        await docker.createVolume({ Name: name, Labels: { [managedLabel]: 'true' } });
      }
    },
    async removeVolume(name) {
      try {
        await docker.getVolume(name).remove();
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
    },
    async createNetwork(spec) {
      await docker.createNetwork(networkOptionsOf(spec));
    },
    async listNetworks() {
      const found = await docker.listNetworks({
        filters: { label: [`${managedLabel}=true`] },
      });
      return found.map((network) => ({
        name: network.Name,
        configHash: network.Labels?.[configHashLabel] ?? '',
      }));
    },
    async removeNetwork(name) {
      try {
        await docker.getNetwork(name).remove();
      } catch (error) {
        // Gone already, or still used by a container the agent does not manage: left alone.
        const status = statusOf(error);
        if (status !== 404 && status !== 403 && status !== 409) throw error;
      }
    },
    async list() {
      const found = await docker.listContainers({
        all: true,
        filters: { label: [`${managedLabel}=true`] },
      });
      return found.map((container) => {
        const labels = container.Labels;
        const serviceId = Number(labels[serviceIdLabel]);
        const health = healthOf(container.Status);
        return {
          id: container.Id,
          service: labels[serviceNameLabel] ?? '',
          serviceId: Number.isInteger(serviceId) ? serviceId : null,
          image: container.Image,
          configHash: labels[configHashLabel] ?? '',
          state: stateOf(container.State),
          exitCode: exitCodeOf(container.Status),
          ...(health === undefined ? {} : { health }),
        };
      });
    },
    async create(spec: ContainerSpec) {
      const { options, laterNetworks } = createOptionsOf(spec);
      const container = await docker.createContainer(options);
      try {
        for (const network of laterNetworks) {
          await docker.getNetwork(network.name).connect({
            Container: container.id,
            EndpointConfig: { Aliases: [...network.aliases] },
          });
        }
      } catch (error) {
        // Half made, its hash would pass for the whole: it goes, and the update fails.
        await container.remove({ force: true }).catch(() => undefined);
        throw error;
      }
      return container.id;
    },
    async start(id) {
      try {
        await docker.getContainer(id).start();
      } catch (error) {
        if (statusOf(error) !== 304) throw error;
      }
    },
    async stop(id, timeoutSeconds) {
      try {
        await docker
          .getContainer(id)
          .stop(timeoutSeconds === undefined ? {} : { t: timeoutSeconds });
      } catch (error) {
        if (statusOf(error) !== 304 && statusOf(error) !== 404) throw error;
      }
    },
    async restart(id, timeoutSeconds) {
      await docker
        .getContainer(id)
        .restart(timeoutSeconds === undefined ? {} : { t: timeoutSeconds });
    },
    async remove(id) {
      try {
        await docker.getContainer(id).remove({ force: true });
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
      }
    },
    async exec(id, argv, size) {
      const exec = await docker.getContainer(id).exec({
        Cmd: [...argv],
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: true,
      });
      const stream = await exec.start({ hijack: true, stdin: true, Tty: true });
      await exec.resize({ h: size.rows, w: size.cols }).catch(() => undefined);
      return {
        stream,
        resize: async ({ cols, rows }) => {
          await exec.resize({ h: rows, w: cols });
        },
        exitCode: async () => {
          const inspected = await exec.inspect();
          return inspected.ExitCode;
        },
      };
    },
    async followLogs(id, sinceSeconds, onLine, onEnd) {
      const stream = await docker.getContainer(id).logs({
        follow: true,
        stdout: true,
        stderr: true,
        timestamps: true,
        since: sinceSeconds,
      });
      const split = (isStdErr: boolean): PassThrough => {
        const out = new PassThrough();
        let rest = '';
        out.setEncoding('utf8');
        out.on('data', (chunk: string) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) {
            // "2026-11-29T12:00:00.123456789Z message"
            const space = line.indexOf(' ');
            const stamp = Date.parse(line.slice(0, space));
            onLine(
              Number.isNaN(stamp) ? line : line.slice(space + 1),
              isStdErr,
              Number.isNaN(stamp) ? Date.now() : stamp,
            );
          }
        });
        return out;
      };
      docker.modem.demuxStream(stream, split(false), split(true));
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        onEnd();
      };
      stream.once('end', end);
      stream.once('close', end);
      stream.once('error', end);
      return () => {
        if ('destroy' in stream && typeof stream.destroy === 'function') stream.destroy();
      };
    },
  };
};
