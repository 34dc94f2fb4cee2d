import { Readable } from 'node:stream';
import Docker from 'dockerode';
import type { DockerHost } from '../../infra/config/builder.js';
import type { BuildBackend, Outcome } from './build-backend.js';
import { buildWithSecrets } from './buildkit-build.js';
import { errorOf, lineSplitter, messagesOf, progressMessage } from './engine-messages.js';
import { probeContext } from './probe-context.js';

// Push progress worth a log line: a layer's end and the digest, not its byte counts.
const pushStatuses = /^(Pushed|Layer already exists|Mounted from|.*digest: )/;

// What the classic builder says of each step: the container it runs the step in, and the image
// the step made or took from the cache.
const stepContainer = /^ ---> Running in ([0-9a-f]{12,64})$/;
const stepImage = /^ ---> ([0-9a-f]{12,64})$/;

// How long a stopped build's container may take to go.
const containerRemovalMs = 30_000;

const stoppedBuild = 'The build was stopped';

const statusOf = (thrown: unknown): number | undefined =>
  typeof thrown === 'object' &&
  thrown !== null &&
  'statusCode' in thrown &&
  typeof thrown.statusCode === 'number'
    ? thrown.statusCode
    : undefined;

// Answers undefined when the engine has no such image.
const inspectOrNothing = async (
  image: Docker.Image,
): Promise<Docker.ImageInspectInfo | undefined> => {
  try {
    return await image.inspect();
  } catch (thrown) {
    if (statusOf(thrown) === 404) return undefined;
    throw thrown;
  }
};

const realTags = (info: Docker.ImageInspectInfo): string[] =>
  (info.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>');

// The builder's engine through Docker's Engine API: the classic builder, which every Docker and
// balena-engine serves, and the engine's BuildKit for a build with secrets (buildkit-build.ts).
// The build is neither privileged nor given any host path: the context is the tarball the
// builder packed.
export const dockerBuildBackend = (host: DockerHost): BuildBackend => {
  const docker = new Docker(
    'socketPath' in host
      ? { socketPath: host.socketPath }
      : { host: host.host, port: host.port, protocol: 'http' },
  );
  // Platforms whose programs the engine was seen to run (its host does not forget them while it
  // runs); a refusal is asked again at the next build, as the operator may have set emulation up.
  const runnable = new Set<string>();

  // An image no tag names goes, with its parents that no other image or tag needs (the engine's
  // prune); one still in use (a tag, a child, a container) stays.
  const removeUntagged = async (id: string): Promise<void> => {
    const image = docker.getImage(id);
    const info = await inspectOrNothing(image);
    if (info === undefined || realTags(info).length > 0) return;
    await image.remove().catch(() => undefined);
  };

  // Untagged, the image goes with the parents only it needed; one that another tag names (a
  // build wholly from the cache is the cache's image) stays.
  const discard = async (tag: string): Promise<void> => {
    await docker
      .getImage(tag)
      .remove()
      .catch((thrown: unknown) => {
        if (statusOf(thrown) !== 404) throw thrown;
      });
  };

  // A stopped build's step container: the engine removes it when the build's request ends; the
  // builder removes it too, so that its image can go.
  const removeContainer = async (id: string): Promise<void> => {
    const container = docker.getContainer(id);
    await container.remove({ force: true }).catch(() => undefined);
    await container
      .wait({ condition: 'removed', abortSignal: AbortSignal.timeout(containerRemovalMs) })
      .catch(() => undefined);
  };

  // A build on the classic builder, stopped with `signal`. One that does not succeed leaves none
  // of what it made: its last step's container, and its last image with the parents only that
  // one needed (an image of the cache stays). Answers the image the engine named, if it did.
  const classicBuild = async (
    context: Readable,
    options: Docker.ImageBuildOptions,
    onLog: (line: string) => void,
    signal: AbortSignal,
  ): Promise<Outcome<{ imageId: string | undefined }>> => {
    let container: string | undefined;
    const made: string[] = [];
    const lines = lineSplitter((line) => {
      const running = stepContainer.exec(line)?.[1];
      if (running !== undefined) container = running;
      const image = stepImage.exec(line)?.[1];
      if (image !== undefined) made.push(image);
      onLog(line);
    });
    const cleanUp = async (): Promise<void> => {
      if (container !== undefined) await removeContainer(container);
      const last = made.at(-1);
      if (last !== undefined) await removeUntagged(last);
    };
    let imageId: string | undefined;
    try {
      const stream = await docker.buildImage(context, {
        ...options,
        rm: true,
        forcerm: true,
        pull: false,
        abortSignal: signal,
      });
      for await (const message of messagesOf(stream, progressMessage)) {
        const error = errorOf(message);
        if (error !== undefined) {
          lines.flush();
          await cleanUp();
          return { ok: false, error: error.trim() };
        }
        if (message.stream !== undefined) lines.write(message.stream);
        if (message.aux?.ID !== undefined) imageId = message.aux.ID;
      }
      lines.flush();
    } catch (thrown) {
      lines.flush();
      await cleanUp().catch(() => undefined);
      if (signal.aborted) return { ok: false, error: stoppedBuild };
      throw thrown;
    }
    return { ok: true, imageId };
  };

  return {
    async build(
      context,
      request,
      onLog,
      signal,
    ): Promise<Outcome<{ imageId: string; size: number }>> {
      let built: Outcome<{ imageId: string | undefined }>;
      try {
        // Secrets need BuildKit: the classic builder cannot mount them.
        built =
          request.secrets.size > 0
            ? await buildWithSecrets(host, context, request, onLog, signal)
            : await classicBuild(
                context,
                {
                  t: request.tag,
                  dockerfile: request.dockerfile,
                  buildargs: request.buildArgs,
                  ...(request.target === undefined ? {} : { target: request.target }),
                  ...(request.network ? {} : { networkmode: 'none' }),
                  ...(request.noCache ? { nocache: true } : {}),
                  ...(request.platform === undefined ? {} : { platform: request.platform }),
                },
                onLog,
                signal,
              );
      } catch (thrown) {
        if (!signal.aborted) throw thrown;
        built = { ok: false, error: stoppedBuild };
      }
      if (!built.ok) {
        // A build stopped just as it ended may have tagged its image: the tag is this build's.
        await discard(request.tag).catch(() => undefined);
        return built;
      }
      // Older engines name the image only in their last line.
      const inspected = await docker.getImage(built.imageId ?? request.tag).inspect();
      return { ok: true, imageId: inspected.Id, size: inspected.Size };
    },

    // The engine builds an image of the platform whose one step runs the smallest program of it,
    // never from its cache, without network; the image goes again, and so does what a probe that
    // failed or was stopped made.
    async runsPlatform(platform, signal) {
      if (runnable.has(platform)) return true;
      const context = probeContext(platform);
      if (context === undefined) return false;
      const probed = await classicBuild(
        Readable.from([context]),
        { platform, nocache: true, networkmode: 'none' },
        () => undefined,
        signal,
      );
      if (!probed.ok) return false;
      if (probed.imageId !== undefined) await removeUntagged(probed.imageId);
      runnable.add(platform);
      return true;
    },

    async push(
      tag,
      registryToken,
      onLog,
      signal,
    ): Promise<Outcome<{ digest: string; size: number }>> {
      const image = docker.getImage(tag);
      let digest: string | undefined;
      try {
        const stream = await image.push({
          authconfig: { registrytoken: registryToken },
          abortSignal: signal,
        });
        for await (const message of messagesOf(stream, progressMessage)) {
          const error = errorOf(message);
          if (error !== undefined) return { ok: false, error: error.trim() };
          if (message.aux?.Digest !== undefined) digest = message.aux.Digest;
          const status = message.status;
          if (status !== undefined && pushStatuses.test(status)) {
            onLog(message.id === undefined ? status : `${message.id}: ${status}`);
          }
        }
      } catch (thrown) {
        if (signal.aborted) return { ok: false, error: 'The push was stopped' };
        throw thrown;
      }
      if (digest === undefined) return { ok: false, error: 'The registry named no digest' };
      const { Size } = await image.inspect();
      return { ok: true, digest, size: Size };
    },

    async architecture() {
      return (await docker.version()).Arch;
    },

    async keepAsCache(tag, cacheTag) {
      const image = docker.getImage(tag);
      const built = await image.inspect();
      const before = await inspectOrNothing(docker.getImage(cacheTag));
      const [repo = cacheTag, name] = cacheTag.split(':');
      await image.tag({ repo, ...(name === undefined ? {} : { tag: name }) });
      await image.remove({ noprune: true });
      if (before !== undefined && before.Id !== built.Id) await removeUntagged(before.Id);
    },

    discard,
  };
};
