import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A compose project as a .tar.gz, made by the system's tar as a user would.
export const projectTarball = async (compose: string): Promise<Buffer> => {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-e2e-project-'));
  try {
    await writeFile(join(dir, 'docker-compose.yml'), compose);
    await promisify(execFile)('tar', ['czf', 'project.tar.gz', 'docker-compose.yml'], { cwd: dir });
    return await readFile(join(dir, 'project.tar.gz'));
  } finally {
    await rm(dir, { recursive: true });
  }
};
