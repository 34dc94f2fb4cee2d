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
      compose: { fileName: 'docker-compose.yml', text: compose },
      root: '',
    });
  });

  it('reads a project without a compose file but a Dockerfile at its root as a single-Dockerfile one', async () => {
    const archive = await projectTarball({
      'app-main/Dockerfile': 'FROM scratch\n',
      'app-main/balena.yml': 'name: app\n',
    });
    expect(await readProjectArchive(archive)).toMatchObject({
      compose: undefined,
      balenaYml: 'name: app\n',
      root: 'app-main/',
    });
    await expect(
      readProjectArchive(await projectTarball({ 'README.md': '# app' })),
    ).rejects.toThrow(/no docker-compose.yml or docker-compose.yaml at its root, nor a Dockerfile/);
  });

  it('reads the Dockerfile balena push --dockerfile names, from the root of the tarball only', async () => {
    const archive = await projectTarball({ 'docker/Prod.Dockerfile': 'FROM scratch\n' });
    expect(
      await readProjectArchive(archive, { flatten: false, dockerfile: './docker/Prod.Dockerfile' }),
    ).toMatchObject({ compose: undefined, root: '', dockerfile: 'docker/Prod.Dockerfile' });
    await expect(
      readProjectArchive(archive, { flatten: false, dockerfile: '../docker/Prod.Dockerfile' }),
    ).rejects.toThrow(
      'The project has no docker-compose.yml or docker-compose.yaml, nor ../docker/Prod.Dockerfile',
    );
  });

  it('refuses a bomb of tar entries at the unpacked limit', async () => {
    await expect(readProjectArchive(gzipBomb(4096))).rejects.toThrow(
      'The project unpacks to more than 200 MiB',
    );
  });
});
