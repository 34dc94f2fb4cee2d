import Docker from 'dockerode';
import { z } from 'zod';
import type { DockerHost } from '../../infra/config/config.js';
import type { BuildBackend, Outcome } from './build-backend.js';

// One message of the engine's progress stream (build and push answer NDJSON).
const progressMessage = z.looseObject({
  stream: z.string().optional(),
  status: z.string().optional(),
  id: z.string().optional(),
  error: z.string().optional(),
  errorDetail: z.looseObject({ message: z.string().optional() }).optional(),
  aux: z.looseObject({ ID: z.string().optional(), Digest: z.string().optional() }).optional(),
});

type ProgressMessage = z.infer<typeof progressMessage>;

const maxMessageChars = 4 * 1024 * 1024;

async function* messagesOf(stream: NodeJS.ReadableStream): AsyncGenerator<ProgressMessage> {
  let pending = '';
  const parse = (line: string): ProgressMessage | undefined => {
    if (line.trim() === '') return undefined;
    const parsed = progressMessage.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  };
  for await (const chunk of stream) {
    pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    // The engine writes a message a line, each a piece of output: one without end is no message.
    if (pending.length > maxMessageChars) throw new Error('The engine sent a message without end');
    for (const line of lines) {
      const message = parse(line);
      if (message) yield message;
    }
  }
  const last = parse(pending);
  if (last) yield last;
}

// Longest output the engine may write without a line break before it is handed on as a line.
const maxPendingChars = 64 * 1024;

// The engine's build output arrives in pieces that need not end at a line: lines are handed on
// whole, without the engine's blank lines.
const lineSplitter = (onLog: (line: string) => void) => {
  let pending = '';
  return {
    write(text: string): void {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      if (pending.length > maxPendingChars) {
        lines.push(pending);
        pending = '';
      }
      for (const line of lines) if (line.trim() !== '') onLog(line.trimEnd());
    },
    flush(): void {
      if (pending.trim() !== '') onLog(pending.trimEnd());
      pending = '';
    },
  };
};

const errorOf = (message: ProgressMessage): string | undefined =>
  message.error ?? message.errorDetail?.message;

// Push progress worth a log line: a layer's end and the digest, not its byte counts.
const pushStatuses = /^(Pushed|Layer already exists|Mounted from|.*digest: )/;

// What the classic builder says of each step: the container it runs the step in, and the image
// the step made or took from the cache.
const stepContainer = /^ ---> Running in ([0-9a-f]{12,64})$/;
const stepImage = /^ ---> ([0-9a-f]{12,64})$/;

// How long a stopped build's container may take to go.
const containerRemovalMs = 30_000;

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

// The builder's engine through Docker's Engine API (classic builder, which every Docker and
// balena-engine serves). The build is neither privileged nor given any host path: the context
// is the tarball the builder packed.
export const dockerBuildBackend = (host: DockerHost): BuildBackend => {
  const docker = new Docker(
    'socketPath' in host
      ? { socketPath: host.socketPath }
      : { host: host.host, port: host.port, protocol: 'http' },
  );

  // An image no tag names goes, with its parents that no other image or tag needs (the engine's
  // prune); one still in use (a tag, a child, a container) stays.
  const removeUntagged = async (id: string): Promise<void> => {
    const image = docker.getImage(id);
    const info = await inspectOrNothing(image);
    if (info === undefined || realTags(info).length > 0) return;
    await image.remove().catch(() => undefined);
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

  return {
    async build(
      context,
      request,
      onLog,
      signal,
    ): Promise<Outcome<{ imageId: string; size: number }>> {
      let container: string | undefined;
      const made: string[] = [];
      const lines = lineSplitter((line) => {
        const running = stepContainer.exec(line)?.[1];
        if (running !== undefined) container = running;
        const image = stepImage.exec(line)?.[1];
        if (image !== undefined) made.push(image);
        onLog(line);
      });
      // What a build that does not succeed made goes: its last step's container, and its last
      // image with the parents only that one needed (an image of the cache stays).
      const cleanUp = async (): Promise<void> => {
        if (container !== undefined) await removeContainer(container);
        const last = made.at(-1);
        if (last !== undefined) await removeUntagged(last);
      };
      let imageId: string | undefined;
      try {
        const stream = await docker.buildImage(context, {
          t: request.tag,
          dockerfile: request.dockerfile,
          buildargs: request.buildArgs,
          ...(request.target === undefined ? {} : { target: request.target }),
          ...(request.network ? {} : { networkmode: 'none' }),
          ...(request.noCache ? { nocache: true } : {}),
          rm: true,
          forcerm: true,
          pull: false,
          abortSignal: signal,
        });
        for await (const message of messagesOf(stream)) {
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
        if (signal.aborted) return { ok: false, error: 'The build was stopped' };
        throw thrown;
      }
      // Older engines name the image only in their last line.
      const inspected = await docker.getImage(imageId ?? request.tag).inspect();
      return { ok: true, imageId: inspected.Id, size: inspected.Size };
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
        for await (const message of messagesOf(stream)) {
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

    async discard(tag) {
      // Untagged, the image goes with the parents only it needed; one that another tag names
      // (a build wholly from the cache is the cache's image) stays.
      await docker
        .getImage(tag)
        .remove()
        .catch((thrown: unknown) => {
          if (statusOf(thrown) !== 404) throw thrown;
        });
    },
  };
};
