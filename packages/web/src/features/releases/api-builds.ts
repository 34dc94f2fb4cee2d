import type { PublicConfig } from '@flotilla/sdk/config';
import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { releaseKeys } from './query-keys.js';

export type BuildResult = {
  releaseId: number;
  // cancelled: the release was cancelled during its build (or the build stopped).
  status: 'success' | 'failed' | 'cancelled';
  log: string[];
};

// What the builder builds from: an uploaded project file, or a tarball URL it downloads.
export type BuildProject = { file: File } | { url: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const resultOf = (value: unknown): BuildResult | undefined => {
  if (!isRecord(value) || typeof value.releaseId !== 'number') return undefined;
  if (value.status !== 'success' && value.status !== 'failed' && value.status !== 'cancelled') {
    return undefined;
  }
  const log = Array.isArray(value.log) ? value.log.filter((line) => typeof line === 'string') : [];
  return { releaseId: value.releaseId, status: value.status, log };
};

const contentTypeOf = (file: File): string =>
  /\.tar$/i.test(file.name) ? 'application/x-tar' : 'application/gzip';

// Runs a build on the server's builder and reads its NDJSON answer as it arrives
// (features/builder/build-stream.ts on the server): each log line goes to `onLine` at once, then
// the result; a refusal during the build throws its message.
const runBuild = async (
  client: FlotillaClient,
  fleetId: number,
  project: BuildProject,
  onLine: (line: string) => void,
): Promise<BuildResult> => {
  const body = await client.stream({
    path: `/builder/v1/applications/${fleetId}/releases`,
    post:
      'file' in project
        ? { upload: { data: project.file, contentType: contentTypeOf(project.file) } }
        : { json: { url: project.url } },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let tail = '';
  let result: BuildResult | undefined;
  const take = (text: string): void => {
    if (text.trim() === '') return;
    const event: unknown = JSON.parse(text);
    if (!isRecord(event)) return;
    if (typeof event.line === 'string') onLine(event.line);
    if (typeof event.error === 'string') throw new Error(event.error);
    result = resultOf(event.result) ?? result;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const parts = (tail + decoder.decode(value, { stream: true })).split('\n');
    tail = parts.pop() ?? '';
    parts.forEach(take);
  }
  take(tail);
  if (result === undefined) throw new Error('The build ended without a result');
  return result;
};

// Whether this server builds the images of services with a `build:` step, and why not (GET
// /config's builder); undefined while unknown (loading, or an older server). Read only while
// `wanted` (the Create release dialog open).
export const useImageBuilds = (wanted: boolean): PublicConfig['builder'] => {
  const client = useClient();
  const config = useQuery({
    queryKey: releaseKeys.config,
    queryFn: () => client.config(),
    staleTime: Infinity,
    enabled: wanted,
  });
  return config.data?.builder;
};

// Builds a release from the project; `onStart` runs before the build, `onLine` for each log line.
// The fleet refreshes when the build ends, whatever its outcome; the dialog shows a failure.
export const useBuildRelease = (
  fleetId: number,
  { onStart, onLine }: { onStart: () => void; onLine: (line: string) => void },
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (project: BuildProject) => {
      onStart();
      return await runBuild(client, fleetId, project, onLine);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) }),
  });
};
