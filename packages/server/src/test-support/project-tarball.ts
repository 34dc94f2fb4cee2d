import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { create as createTar } from 'tar';

// A gzipped tarball of the given files, as `tar czf` makes it (a compose project for the builder);
// a name may hold folders (`project/docker-compose.yml`). `executables` are packed with mode 755
// (a static busybox a test image copies).
export const projectTarball = async (
  files: Record<string, string | Buffer>,
  { executables = [] }: { executables?: readonly string[] } = {},
): Promise<Buffer> => {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-project-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
      if (executables.includes(name)) await chmod(join(dir, name), 0o755);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of createTar({ gzip: true, cwd: dir }, Object.keys(files))) {
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  } finally {
    await rm(dir, { recursive: true });
  }
};
