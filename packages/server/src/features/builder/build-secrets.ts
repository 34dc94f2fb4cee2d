import { lstat, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { BuildSecret } from './build-settings.js';

// Build secrets, as balena's builder gives them: the files of the project's `.balena/secrets/`
// that `.balena/balena.yml` names, at /run/secrets/<dest> in every RUN step of the services they
// are for, and in no layer. They are taken out of the server's copy of the project before any
// context is packed (so no `COPY .` can reach them), and each RUN of the service's Dockerfile
// mounts them through BuildKit (buildkit-build.ts).

const secretsFolder = join('.balena', 'secrets');

const isFolder = async (path: string): Promise<boolean> => {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
};

// The secret files of the unpacked project, by their path in `.balena/secrets/`; the folder is
// removed. Only real folders and regular files of the project are read (and removed): a link
// may point anywhere on the server.
export const takeSecretFiles = async (projectDir: string): Promise<Map<string, Buffer>> => {
  const root = join(projectDir, secretsFolder);
  const files = new Map<string, Buffer>();
  if (!(await isFolder(join(projectDir, '.balena'))) || !(await isFolder(root))) return files;
  if (!(await realpath(root)).startsWith(`${await realpath(projectDir)}${sep}`)) return files;
  const walk = async (dir: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stats = await lstat(path);
      if (stats.isDirectory()) await walk(path);
      else if (stats.isFile()) files.set(relative(root, path), await readFile(path));
    }
  };
  await walk(root);
  await rm(root, { recursive: true, force: true });
  return files;
};

export type SecretMounts = {
  // BuildKit's secret ids and their contents.
  secrets: Map<string, Buffer>;
  // What each RUN gets: `--mount=type=secret,...` for every secret.
  flags: string;
};

// The mounts of a service's secrets, or the reason one is missing.
export const secretMounts = (
  files: ReadonlyMap<string, Buffer>,
  wanted: readonly BuildSecret[],
): SecretMounts | { missing: string } => {
  const secrets = new Map<string, Buffer>();
  const flags: string[] = [];
  for (const [index, secret] of wanted.entries()) {
    const data = files.get(secret.source);
    if (data === undefined) return { missing: secret.source };
    const id = `secret-${index}`;
    secrets.set(id, data);
    flags.push(`--mount=type=secret,id=${id},target=/run/secrets/${secret.dest}`);
  }
  return { secrets, flags: flags.join(' ') };
};

const isComment = (line: string): boolean => /^\s*#/.test(line);

// The Dockerfile with the flags after every RUN instruction (a line that starts one, not a line
// continuing the one before, nor a comment).
export const withSecretMounts = (dockerfile: string, flags: string): string => {
  const lines = dockerfile.split('\n');
  // The parser directives, comments before any instruction, may change the escape character.
  const directives = lines.slice(
    0,
    Math.max(
      0,
      lines.findIndex((line) => !isComment(line)),
    ),
  );
  const escape = directives.some((line) => /^#\s*escape\s*=\s*`\s*$/i.test(line)) ? '`' : '\\';
  let continued = false;
  return lines
    .map((line) => {
      if (isComment(line) || line.trim() === '') return line;
      const rewritten = continued ? line : line.replace(/^(\s*RUN)(\s)/i, `$1 ${flags}$2`);
      continued = line.trimEnd().endsWith(escape);
      return rewritten;
    })
    .join('\n');
};
