import { once } from 'node:events';
import { lstat, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { builderLimits } from '@flotilla/shared/releases/builder-limits';
import { create as createTar, extract } from 'tar';
import { isIgnored, parseDockerignore } from './dockerignore.js';
import { tarBytes } from './tar-stream.js';

// A project unpacked on the server's disk for its builds: each service's context is a folder of
// it, packed again as the tar the engine reads. Only files, folders and symbolic links are
// unpacked (tar refuses paths out of the folder and writes nothing through a link), with the
// server's ownership; the unpacked size was bounded when the project was read.
export type UnpackedProject = {
  // The project's folder (the tarball's root or its one top-level folder).
  dir: string;
  remove(): Promise<void>;
};

const unpackedTypes = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink']);

export const unpackProject = async (archive: Buffer, root: string): Promise<UnpackedProject> => {
  const base = await mkdtemp(join(tmpdir(), 'flotilla-build-'));
  const remove = () => rm(base, { recursive: true, force: true });
  try {
    const unpack = extract({
      cwd: base,
      preserveOwner: false,
      filter: (_path, entry) => !('type' in entry) || unpackedTypes.has(entry.type),
    });
    const done = once(unpack, 'close');
    for await (const chunk of tarBytes(archive)) {
      if (!unpack.write(chunk)) await once(unpack, 'drain');
    }
    unpack.end();
    await done;
    return { dir: join(base, root), remove };
  } catch (error) {
    await remove();
    throw error;
  }
};

// A service's context folder in the unpacked project; undefined when it is missing, not a folder
// or (through a symbolic link of the project) outside the project.
export const contextDirOf = async (
  project: UnpackedProject,
  context: string,
): Promise<string | undefined> => {
  try {
    const root = await realpath(project.dir);
    const resolved = await realpath(join(project.dir, context));
    const inside = resolved === root || resolved.startsWith(`${root}${sep}`);
    return inside && (await lstat(resolved)).isDirectory() ? resolved : undefined;
  } catch {
    return undefined;
  }
};

// A regular file of the context, resolved; undefined when missing, not a file, over `maxBytes` or
// (through a symbolic link) outside the context.
const contextFile = async (
  contextDir: string,
  relative: string,
  maxBytes: number = builderLimits.manifestBytes,
): Promise<string | undefined> => {
  try {
    const root = await realpath(contextDir);
    const resolved = await realpath(join(contextDir, relative));
    const stats = await lstat(resolved);
    return resolved.startsWith(`${root}${sep}`) && stats.isFile() && stats.size <= maxBytes
      ? resolved
      : undefined;
  } catch {
    return undefined;
  }
};

export type PreparedDockerfile = {
  // Its path in the context, as the engine is told.
  dockerfile: string;
  fromTemplate: boolean;
  // What it says, as the image records it.
  text: string;
};

// The Dockerfile a context builds with: the one named, else `Dockerfile`, else balena's
// `Dockerfile.template` with its variables filled in for the fleet's device type (written
// beside it, in the server's copy of the project). Undefined when there is none (or it is larger
// than a manifest may be).
export const prepareDockerfile = async (
  contextDir: string,
  named: string | undefined,
  variables: Record<string, string>,
): Promise<PreparedDockerfile | undefined> => {
  const plain = await contextFile(contextDir, named ?? 'Dockerfile');
  if (plain !== undefined) {
    const text = await readFile(plain, 'utf8');
    return { dockerfile: named ?? 'Dockerfile', fromTemplate: false, text };
  }
  const template =
    named === undefined ? await contextFile(contextDir, 'Dockerfile.template') : undefined;
  if (template === undefined) return undefined;
  const text = (await readFile(template, 'utf8')).replace(
    /%%([A-Z0-9_]+)%%/g,
    (whole, name: string) => variables[name] ?? whole,
  );
  await writeFile(join(contextDir, 'Dockerfile'), text);
  return { dockerfile: 'Dockerfile', fromTemplate: true, text };
};

// The context as a plain tar stream, without what its .dockerignore leaves out (the Dockerfile
// always goes: the engine needs it).
export const contextTar = async (contextDir: string, dockerfile: string): Promise<Readable> => {
  const ignoreFile = await contextFile(contextDir, '.dockerignore');
  const rules =
    ignoreFile === undefined ? [] : parseDockerignore(await readFile(ignoreFile, 'utf8'));
  const names = await readdir(contextDir);
  const pack = createTar(
    {
      cwd: contextDir,
      portable: true,
      filter: (path: string) => {
        const relative = path.replace(/^(\.\/)+/, '');
        return relative === dockerfile || !isIgnored(rules, relative);
      },
    },
    names,
  );
  return Readable.from(pack);
};
