import { describe, expect, it } from 'vitest';
import { gzipBomb } from '../../test-support/gzip-bomb.js';
import { projectTarball } from '../../test-support/project-tarball.js';
import { readProjectArchive } from './project-archive.js';

const compose = 'services:\n  web:\n    image: nginx:1.27\n';

describe('reading a project archive', () => {
  it('stops at the end of the tar: what follows it in the gzip is never inflated', async () => {
    // The project, then (as a second gzip member) 4 GiB that would follow the end of the tar:
    // read on, it would be refused at the unpacked limit.
    const archive = Buffer.concat([
      await projectTarball({ 'docker-compose.yml': compose }),
      gzipBomb(4096),
    ]);
    expect(await readProjectArchive(archive)).toMatchObject({
      composeFileName: 'docker-compose.yml',
      compose,
    });
  });

  it('refuses a bomb of tar entries at the unpacked limit', async () => {
    await expect(readProjectArchive(gzipBomb(4096))).rejects.toThrow(
      'The project unpacks to more than 200 MiB',
    );
  });
});
