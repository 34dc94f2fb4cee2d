import { builderLimits, composeFileNames } from '@flotilla/shared/releases/builder-limits';
import { Parser, type ReadEntry } from 'tar';
import { ApiError, badRequest } from '../../infra/errors/api-error.js';
import { buildSettingsPath } from './build-settings.js';
import { notATarball, tarBytes, unpackedTooLarge } from './tar-stream.js';

// The files of a project the builder reads: its compose file, balena.yml and .balena/balena.yml, at the root of the
// tarball or in its one top-level folder (GitHub's archives hold `<repo>-<ref>/...`), and the
// tarball itself, whose folders are the build contexts (build-context.ts).
export type ProjectFiles = {
  // The compose file; undefined for a project that is one Dockerfile at its root (service `main`).
  compose: { fileName: string; text: string } | undefined;
  balenaYml: string | undefined;
  // `.balena/balena.yml`, the build's variables and secrets (build-settings.ts).
  buildSettings: string | undefined;
  archive: Buffer;
  // The project's folder in the tarball: '' or `<top>/`.
  root: string;
  // A single-Dockerfile project's Dockerfile when named otherwise (balena push --dockerfile).
  dockerfile?: string;
};

// What makes a project without a compose file a single-Dockerfile one, as for balena.
export const rootDockerfileNames = ['Dockerfile', 'Dockerfile.template'] as const;

const manifestNames = new Set<string>([...composeFileNames, 'balena.yml']);

const normalized = (path: string): string => path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');

// The files read as manifests: named as one, at the tarball's root or in its top-level folder.
const isManifest = (path: string): boolean => {
  const parts = path.split('/');
  if (
    path === buildSettingsPath ||
    (parts.length === 3 && path.endsWith(`/${buildSettingsPath}`))
  ) {
    return true;
  }
  return parts.length <= 2 && manifestNames.has(parts.at(-1) ?? '');
};

type Collected = { paths: string[]; manifests: Map<string, string> };

const collect = async (archive: Buffer): Promise<Collected> => {
  const paths: string[] = [];
  const manifests = new Map<string, string>();
  let unpacked = 0;
  let refusal: ApiError | undefined;
  const fail = (message: string): void => {
    refusal ??= badRequest(message);
  };
  const onEntry = (entry: ReadEntry): void => {
    const path = normalized(entry.path);
    unpacked += entry.size;
    if (unpacked > builderLimits.unpackedBytes) fail(unpackedTooLarge());
    if (path !== '') paths.push(path);
    if (entry.type !== 'File' || !isManifest(path)) {
      entry.resume();
      return;
    }
    if (entry.size > builderLimits.manifestBytes) {
      const name = path.endsWith(buildSettingsPath) ? buildSettingsPath : path.split('/').pop();
      fail(`${name ?? path} is larger than ${builderLimits.manifestBytes / 1024} KiB`);
      entry.resume();
      return;
    }
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () => manifests.set(path, Buffer.concat(chunks).toString('utf8')));
  };
  const parser = new Parser({ strict: true, onReadEntry: onEntry });
  // The parser keeps (and copies, chunk by chunk) whatever follows the end of the archive: nothing
  // more is handed to it once it saw the end.
  let ended = false;
  parser.on('eof', () => {
    ended = true;
  });
  parser.on('error', () => fail(notATarball));
  const closed = new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', () => resolve());
  });
  try {
    for await (const chunk of tarBytes(archive)) {
      // Every entry is read or resumed as it comes, so the parser holds no more than a chunk.
      parser.write(chunk);
      if (ended || refusal !== undefined) break;
    }
  } catch (error) {
    // zlib's own errors (a corrupt or truncated gzip) say only that this is no tarball.
    throw error instanceof ApiError ? error : badRequest(notATarball);
  }
  if (refusal !== undefined) throw refusal;
  parser.end();
  await closed;
  if (refusal !== undefined) throw refusal;
  if (paths.length === 0) throw badRequest(notATarball);
  return { paths, manifests };
};

// The folder the project lives in: the root, or (when flattening) the one folder everything is in.
const projectRoot = ({ paths, manifests }: Collected, flatten: boolean): string => {
  if (
    !flatten ||
    composeFileNames.some((name: string) => manifests.has(name)) ||
    rootDockerfileNames.some((name) => paths.includes(name))
  ) {
    return '';
  }
  const tops = new Set(paths.map((path) => path.split('/')[0]));
  const [top] = tops;
  return tops.size === 1 && top !== undefined ? `${top}/` : '';
};

export type ReadProjectOptions = {
  // balena's shouldFlatten (true by default, as balena-sdk sends it): a tarball whose entries all
  // sit in one top-level folder is read from that folder. When false, only the tarball's root is
  // the project.
  flatten?: boolean;
  // A single-Dockerfile project's Dockerfile, relative to the project's root, when it is not
  // Dockerfile or Dockerfile.template (balena push --dockerfile).
  dockerfile?: string;
};

export const readProjectArchive = async (
  archive: Buffer,
  { flatten = true, dockerfile }: ReadProjectOptions = {},
): Promise<ProjectFiles> => {
  if (archive.length === 0) throw badRequest('The project is empty');
  const collected = await collect(archive);
  const root = projectRoot(collected, flatten);
  const composeFileName = composeFileNames.find((name: string) =>
    collected.manifests.has(`${root}${name}`),
  );
  const compose = composeFileName && collected.manifests.get(`${root}${composeFileName}`);
  const manifests = {
    balenaYml: collected.manifests.get(`${root}balena.yml`),
    buildSettings: collected.manifests.get(`${root}${buildSettingsPath}`),
    archive,
    root,
  };
  if (composeFileName && compose !== undefined) {
    return { compose: { fileName: composeFileName, text: compose }, ...manifests };
  }
  if (dockerfile !== undefined) {
    if (collected.paths.includes(`${root}${normalized(dockerfile)}`)) {
      return { compose: undefined, ...manifests, dockerfile: normalized(dockerfile) };
    }
    throw badRequest(`The project has no ${composeFileNames.join(' or ')}, nor ${dockerfile}`);
  }
  if (rootDockerfileNames.some((name) => collected.paths.includes(`${root}${name}`))) {
    return { compose: undefined, ...manifests };
  }
  throw badRequest(
    `The project has no ${composeFileNames.join(' or ')} at its root, nor a Dockerfile${flatten ? '' : " (shouldFlatten is false, so the tarball's top-level folder is not read as the project)"}`,
  );
};
