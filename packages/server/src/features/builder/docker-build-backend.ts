import { Readable } from 'node:stream';
import Docker from 'dockerode';
import type { DockerHost } from '../../infra/config/config.js';
import type { BuildBackend, Outcome } from './build-backend.js';
import { buildWithSecrets } from './buildkit-build.js';
import { errorOf, lineSplitter, messagesOf, progressMessage } from './engine-messages.js';
import { probeContext } from './probe-context.js';

// Push progress worth a log line: a layer's end and the digest, not its byte counts.
const pushStatuses = /^(Pushed|Layer already exists|Mounted from|.*digest: )/;

// The builder's engine through Docker's Engine API (classic builder, which every Docker and
// balena-engine serves; BuildKit for a build with secrets). The build is neither privileged nor given any host path: the context
// is the tarball the builder packed.
export const dockerBuildBackend = (host: DockerHost): BuildBackend => {
  const docker = new Docker(
    'socketPath' in host
      ? { socketPath: host.socketPath }
      : { host: host.host, port: host.port, protocol: 'http' },
  );
  // Platforms whose programs the engine was seen to run (its host does not forget them while it
  // runs); a refusal is asked again at the next build, as the operator may have set emulation up.
  const runnable = new Set<string>();
  return {
    async build(context: Readable, request, onLog): Promise<Outcome<{ imageId: string }>> {
      // Secrets need BuildKit: the classic builder cannot mount them.
      if (request.secrets.size > 0) {
        return await buildWithSecrets(host, context, request, request.secrets, onLog);
      }
      const stream = await docker.buildImage(context, {
        t: request.tag,
        dockerfile: request.dockerfile,
        buildargs: request.buildArgs,
        ...(request.target === undefined ? {} : { target: request.target }),
        ...(request.network ? {} : { networkmode: 'none' }),
        ...(request.noCache ? { nocache: true } : {}),
        ...(request.platform === undefined ? {} : { platform: request.platform }),
        rm: true,
        forcerm: true,
        pull: false,
      });
      const lines = lineSplitter(onLog);
      let imageId: string | undefined;
      for await (const message of messagesOf(stream, progressMessage)) {
        const error = errorOf(message);
        if (error !== undefined) {
          lines.flush();
          return { ok: false, error: error.trim() };
        }
        if (message.stream !== undefined) lines.write(message.stream);
        if (message.aux?.ID !== undefined) imageId = message.aux.ID;
      }
      lines.flush();
      if (imageId !== undefined) return { ok: true, imageId };
      // Older engines name the image only in their last line.
      const inspected = await docker.getImage(request.tag).inspect();
      return { ok: true, imageId: inspected.Id };
    },

    // The engine builds an image of the platform whose one step runs the smallest program of it,
    // never from its cache, without network; the image goes again.
    async runsPlatform(platform) {
      if (runnable.has(platform)) return true;
      const context = probeContext(platform);
      if (context === undefined) return false;
      const stream = await docker.buildImage(Readable.from([context]), {
        platform,
        nocache: true,
        networkmode: 'none',
        rm: true,
        forcerm: true,
        pull: false,
      });
      let ran = true;
      let imageId: string | undefined;
      for await (const message of messagesOf(stream, progressMessage)) {
        if (errorOf(message) !== undefined) ran = false;
        if (message.aux?.ID !== undefined) imageId = message.aux.ID;
      }
      if (imageId !== undefined)
        await docker
          .getImage(imageId)
          .remove()
          .catch(() => undefined);
      if (ran) runnable.add(platform);
      return ran;
    },

    async push(tag, registryToken, onLog): Promise<Outcome<{ digest: string; size: number }>> {
      const image = docker.getImage(tag);
      const stream = await image.push({ authconfig: { registrytoken: registryToken } });
      let digest: string | undefined;
      for await (const message of messagesOf(stream, progressMessage)) {
        const error = errorOf(message);
        if (error !== undefined) return { ok: false, error: error.trim() };
        if (message.aux?.Digest !== undefined) digest = message.aux.Digest;
        const status = message.status;
        if (status !== undefined && pushStatuses.test(status)) {
          onLog(message.id === undefined ? status : `${message.id}: ${status}`);
        }
      }
      if (digest === undefined) return { ok: false, error: 'The registry named no digest' };
      const { Size } = await image.inspect();
      return { ok: true, digest, size: Size };
    },

    async architecture() {
      return (await docker.version()).Arch;
    },

    async remove(tag) {
      await docker.getImage(tag).remove({ noprune: true });
    },
  };
};
