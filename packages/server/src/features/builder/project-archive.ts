import { builderLimits, composeFileNames } from '@flotilla/shared/releases/builder-limits';
import { Parser, type ReadEntry } from 'tar';
import { badRequest } from '../../infra/errors/api-error.js';

// The files of a project the builder reads: its compose file and balena.yml, at the root of the
// tarball or in its one top-level folder (GitHub's archives hold `<repo>-<ref>/...`).
export type ProjectFiles = {
  composeFileName: string;
  compose: string;
  balenaYml: string | undefined;
};

const manifestNames = new Set<string>([...composeFileNames, 'balena.yml']);

const notATarball = 'The project is not a tar archive (.tar or .tar.gz)';

const normalized = (path: string): string => path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');

type Collected = { paths: string[]; manifests: Map<string, string> };

const collect = (archive: Buffer): Promise<Collected> =>
  new Promise((resolve, reject) => {
    const paths: string[] = [];
    const manifests = new Map<string, string>();
    let unpacked = 0;
    let failed = false;
    const fail = (message: string): void => {
      if (failed) return;
      failed = true;
      reject(badRequest(message));
    };
    const onEntry = (entry: ReadEntry): void => {
      const path = normalized(entry.path);
      unpacked += entry.size;
      if (unpacked > builderLimits.unpackedBytes) {
        fail(`The project unpacks to more than ${builderLimits.unpackedBytes / 1024 / 1024} MiB`);
      }
      if (path !== '') paths.push(path);
      const base = path.split('/').pop() ?? '';
      const depth = path.split('/').length;
      if (entry.type !== 'File' || !manifestNames.has(base) || depth > 2) {
        entry.resume();
        return;
      }
      if (entry.size > builderLimits.manifestBytes) {
        fail(`${base} is larger than ${builderLimits.manifestBytes / 1024} KiB`);
        entry.resume();
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => manifests.set(path, Buffer.concat(chunks).toString('utf8')));
    };
    const parser = new Parser({ strict: true, onReadEntry: onEntry });
    parser.on('error', () => fail(notATarball));
    parser.on('close', () => {
      if (failed) return;
      if (paths.length === 0) fail(notATarball);
      else resolve({ paths, manifests });
    });
    parser.end(archive);
  });

// The folder the project lives in: the root, or (when flattening) the one folder everything is in.
const projectRoot = ({ paths, manifests }: Collected, flatten: boolean): string => {
  if (!flatten || composeFileNames.some((name: string) => manifests.has(name))) return '';
  const tops = new Set(paths.map((path) => path.split('/')[0]));
  const [top] = tops;
  return tops.size === 1 && top !== undefined ? `${top}/` : '';
};

export type ReadProjectOptions = {
  // balena's shouldFlatten (true by default, as balena-sdk sends it): a tarball whose entries all
  // sit in one top-level folder is read from that folder. When false, only the tarball's root is
  // the project.
  flatten?: boolean;
};

export const readProjectArchive = async (
  archive: Buffer,
  { flatten = true }: ReadProjectOptions = {},
): Promise<ProjectFiles> => {
  if (archive.length === 0) throw badRequest('The project is empty');
  const collected = await collect(archive);
  const root = projectRoot(collected, flatten);
  const composeFileName = composeFileNames.find((name: string) =>
    collected.manifests.has(`${root}${name}`),
  );
  const compose = composeFileName && collected.manifests.get(`${root}${composeFileName}`);
  if (!composeFileName || compose === undefined) {
    throw badRequest(
      `The project has no ${composeFileNames.join(' or ')} at its root: Flotilla builds releases from a compose file whose services name their images${flatten ? '' : " (shouldFlatten is false, so the tarball's top-level folder is not read as the project)"}`,
    );
  }
  return { composeFileName, compose, balenaYml: collected.manifests.get(`${root}balena.yml`) };
};
