import { once } from 'node:events';
import { lstat, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Readable } from 'node:stream';
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

const isFile = async (path: string): Promise<boolean> => {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
};

// The Dockerfile a context builds with: the one named, else `Dockerfile`, else balena's
// `Dockerfile.template` with its variables filled in for the fleet's device type (written
// beside it, in the server's copy of the project). Undefined when there is none.
export const prepareDockerfile = async (
  contextDir: string,
  named: string | undefined,
  variables: Record<string, string>,
): Promise<{ dockerfile: string; fromTemplate: boolean } | undefined> => {
  if (named !== undefined) {
    return (await isFile(join(contextDir, named)))
      ? { dockerfile: named, fromTemplate: false }
      : undefined;
  }
  if (await isFile(join(contextDir, 'Dockerfile'))) {
    return { dockerfile: 'Dockerfile', fromTemplate: false };
  }
  const template = join(contextDir, 'Dockerfile.template');
  if (!(await isFile(template))) return undefined;
  const text = (await readFile(template, 'utf8')).replace(
    /%%([A-Z0-9_]+)%%/g,
    (whole, name: string) => variables[name] ?? whole,
  );
  await writeFile(join(contextDir, 'Dockerfile'), text);
  return { dockerfile: 'Dockerfile', fromTemplate: true };
};

// The context as a plain tar stream, without what its .dockerignore leaves out (the Dockerfile
// always goes: the engine needs it).
export const contextTar = async (contextDir: string, dockerfile: string): Promise<Readable> => {
  const ignoreFile = join(contextDir, '.dockerignore');
  const rules = (await isFile(ignoreFile))
    ? parseDockerignore(await readFile(ignoreFile, 'utf8'))
    : [];
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
