import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { DockerHost } from '../../infra/config/builder.js';
import type { ImageBuildRequest, Outcome } from './build-backend.js';
import { openSecretSession } from './buildkit-session.js';
import { errorOf, lineSplitter, messagesOf } from './engine-messages.js';
import { textOf, wireFields } from './protobuf-wire.js';

// A build with secrets, on the engine's BuildKit (`version=2`): the classic builder cannot mount
// a file into a step without writing it into a layer. The build's session serves the secrets
// (buildkit-session.ts); the Dockerfile mounts them (build-secrets.ts). Its progress arrives as
// BuildKit's status messages, read here into the same build log lines.

const buildkitMessage = z.looseObject({
  id: z.string().optional(),
  error: z.string().optional(),
  errorDetail: z.looseObject({ message: z.string().optional() }).optional(),
  aux: z.unknown().optional(),
});

const imageIdAux = z.looseObject({ ID: z.string() });

// The flags build-secrets.ts adds to each RUN, left out of the step's name in the log.
const secretMountFlags = / --mount=type=secret,id=secret-\d+,target=\S+/g;

// BuildKit's StatusResponse: vertexes (1: digest 1, name 3, cached 4, started 5) and logs
// (3: vertex 1, msg 4). Each step is said once when it starts, then what it writes.
const progressReader = (onLog: (line: string) => void) => {
  const started = new Set<string>();
  const lines = lineSplitter(onLog);
  return {
    read(trace: string): void {
      for (const field of wireFields(Buffer.from(trace, 'base64'))) {
        if (field.kind !== 'bytes') continue;
        const inner = wireFields(field.value);
        if (field.number === 1) {
          const digest = textOf(inner, 1) ?? '';
          const name = textOf(inner, 3);
          // BuildKit's own steps (loading the context) are not the Dockerfile's.
          if (name === undefined || name.startsWith('[internal]') || started.has(digest)) continue;
          if (!inner.some((part) => part.number === 5)) continue;
          started.add(digest);
          const cached = inner.some(
            (part) => part.number === 4 && part.kind === 'varint' && part.value !== 0n,
          );
          lines.flush();
          const step = name.replace(secretMountFlags, '');
          onLog(cached ? `${step} (cached)` : step);
        } else if (field.number === 3) {
          const message = inner.find((part) => part.number === 4);
          if (message?.kind === 'bytes') lines.write(message.value.toString('utf8'));
        }
      }
    },
    flush: () => lines.flush(),
  };
};

// Aborting `signal` drops the request: the engine ends the build with it.
const post = (
  host: DockerHost,
  path: string,
  body: Readable,
  signal: AbortSignal,
): Promise<IncomingMessage> =>
  new Promise((resolve, reject) => {
    const call = httpRequest(
      {
        ...('socketPath' in host
          ? { socketPath: host.socketPath }
          : { host: host.host, port: host.port }),
        path,
        method: 'POST',
        headers: { 'content-type': 'application/x-tar' },
        signal,
      },
      resolve,
    );
    call.on('error', reject);
    body.on('error', (error) => call.destroy(error));
    body.pipe(call);
  });

const textOfResponse = async (response: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of response) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (text.length > 4096) break;
  }
  return text;
};

// Stopped when `signal` aborts: the request is dropped, and the engine cancels the build with
// it. BuildKit runs the steps in no container of the engine's and makes the image only at the
// build's end, so a build that does not succeed leaves no container or image; the steps it
// finished stay in BuildKit's build cache, as any build's do (`docker builder prune` frees it).
export const buildWithSecrets = async (
  host: DockerHost,
  context: Readable,
  request: ImageBuildRequest,
  onLog: (line: string) => void,
  signal: AbortSignal,
): Promise<Outcome<{ imageId: string }>> => {
  const session = await openSecretSession(host, request.secrets, signal);
  try {
    const query = new URLSearchParams({
      version: '2',
      session: session.id,
      t: request.tag,
      dockerfile: request.dockerfile,
      buildargs: JSON.stringify(request.buildArgs),
      rm: '1',
      forcerm: '1',
      ...(request.target === undefined ? {} : { target: request.target }),
      ...(request.network ? {} : { networkmode: 'none' }),
      ...(request.noCache ? { nocache: '1' } : {}),
      ...(request.platform === undefined ? {} : { platform: request.platform }),
    });
    const response = await post(host, `/build?${query.toString()}`, context, signal);
    if (response.statusCode !== 200) {
      const text = await textOfResponse(response);
      return { ok: false, error: `The engine refused the build with secrets: ${text.trim()}` };
    }
    const progress = progressReader(onLog);
    let imageId: string | undefined;
    for await (const message of messagesOf(response, buildkitMessage)) {
      const error = errorOf(message);
      if (error !== undefined) {
        progress.flush();
        return { ok: false, error: error.trim() };
      }
      if (message.id === 'moby.buildkit.trace' && typeof message.aux === 'string') {
        progress.read(message.aux);
      }
      if (message.id === 'moby.image.id') {
        const aux = imageIdAux.safeParse(message.aux);
        if (aux.success) imageId = aux.data.ID;
      }
    }
    progress.flush();
    return imageId === undefined
      ? { ok: false, error: 'The engine named no image for the build' }
      : { ok: true, imageId };
  } finally {
    session.close();
  }
};
