import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { changedNames, type TargetService } from '../target-types.js';

// The variables of the services a real device runs (host mode). The agent does not run
// containers, so it hands each service its variables two ways: in the environment of every
// service command it runs (start, restart, status...), and, with `serviceEnvironmentDir`, in a
// file per service that a systemd unit reads with `EnvironmentFile=` (or a script with
// `set -a; . file`).

const plain = /^[A-Za-z0-9_@%+=:,./-]*$/;

// One `NAME=value` line; other values in double quotes, `\`, `"`, `$` and backquotes escaped
// (systemd and POSIX shells read them back alike; a newline stays inside the quotes).
const line = (name: string, value: string): string =>
  plain.test(value)
    ? `${name}=${value}`
    : `${name}="${value.replace(/[\\"$`]/g, (c) => `\\${c}`)}"`;

export const environmentFileText = (environment: Readonly<Record<string, string>>): string =>
  Object.keys(environment)
    .sort()
    .map((name) => `${line(name, environment[name] ?? '')}\n`)
    .join('');

export type FileSystem = {
  read(file: string): Promise<string | null>;
  write(file: string, text: string): Promise<void>;
};

const nodeFileSystem: FileSystem = {
  read: async (file) => {
    try {
      return await readFile(file, 'utf8');
    } catch {
      return null;
    }
  },
  // Atomic, and readable by its owner only: values may be secrets.
  write: async (file, text) => {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, text, { mode: 0o600 });
    await rename(temporary, file);
  },
};

export type ServiceEnvironmentChange = { service: TargetService; names: readonly string[] };

// What each service was last given, and which services' variables changed with a new target.
export class ServiceEnvironments {
  readonly #dir: string | null;
  readonly #fs: FileSystem;
  readonly #known = new Map<string, Readonly<Record<string, string>>>();

  constructor(dir: string | null, fs: FileSystem = nodeFileSystem) {
    this.#dir = dir;
    this.#fs = fs;
  }

  fileOf(service: string): string | null {
    return this.#dir === null ? null : path.join(this.#dir, `${service}.env`);
  }

  // Writes the files that differ and answers the services whose variables changed: since the
  // last target, or, after the agent started, since the file it finds (a service that has no
  // file yet and gets no variables changes nothing).
  async apply(services: readonly TargetService[]): Promise<ServiceEnvironmentChange[]> {
    const changes: ServiceEnvironmentChange[] = [];
    for (const service of services) {
      const before = this.#known.get(service.name);
      this.#known.set(service.name, service.environment);
      const file = this.fileOf(service.name);
      const text = environmentFileText(service.environment);
      let changed = before !== undefined && changedNames(before, service.environment).length > 0;
      if (file !== null) {
        const onDisk = await this.#fs.read(file);
        if (onDisk !== text) {
          await this.#fs.write(file, text);
          if (before === undefined) changed = onDisk !== null || text !== '';
        }
      }
      if (changed) {
        changes.push({ service, names: changedNames(before ?? {}, service.environment) });
      }
    }
    return changes;
  }
}
