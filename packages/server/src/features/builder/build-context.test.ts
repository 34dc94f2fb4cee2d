import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { create as createTar, list } from 'tar';
import { projectTarball } from '../../test-support/project-tarball.js';
import {
  contextDirOf,
  contextTar,
  prepareDockerfile,
  unpackProject,
  type UnpackedProject,
} from './build-context.js';
import { readProjectArchive } from './project-archive.js';

let project: UnpackedProject | undefined;

afterEach(async () => {
  await project?.remove();
  project = undefined;
});

const unpacked = async (files: Record<string, string>): Promise<UnpackedProject> => {
  const read = await readProjectArchive(await projectTarball(files));
  project = await unpackProject(read.archive, read.root);
  return project;
};

const entriesOf = async (tar: NodeJS.ReadableStream): Promise<string[]> => {
  const names: string[] = [];
  const lister = list({ onReadEntry: (entry) => names.push(entry.path) });
  for await (const chunk of tar) lister.write(Buffer.from(chunk));
  lister.end();
  return names.map((name) => name.replace(/\/$/, '')).sort();
};

describe("a service's build context", () => {
  it('is its folder of the project, without what .dockerignore leaves out (the Dockerfile stays)', async () => {
    const root = await unpacked({
      'app-main/docker-compose.yml': 'services:\n  web:\n    build: web\n',
      'app-main/web/Dockerfile': 'FROM scratch\n',
      'app-main/web/.dockerignore': '*.secret\nDockerfile\nnode_modules\n',
      'app-main/web/main.js': '',
      'app-main/web/key.secret': '',
      'app-main/web/node_modules/x.js': '',
      'app-main/other/file': '',
    });
    const dir = await contextDirOf(root, 'web');
    expect(dir).toBeDefined();
    expect(await entriesOf(await contextTar(dir ?? '', 'Dockerfile'))).toEqual([
      '.dockerignore',
      'Dockerfile',
      'main.js',
    ]);
  });

  it('is refused when a symbolic link of the project leads out of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-link-project-'));
    try {
      await writeFile(join(dir, 'Dockerfile'), 'FROM scratch\n');
      await symlink('/etc', join(dir, 'web'));
      await symlink('../..', join(dir, 'up'));
      const chunks: Buffer[] = [];
      for await (const chunk of createTar({ cwd: dir }, ['Dockerfile', 'web', 'up'])) {
        chunks.push(Buffer.from(chunk));
      }
      const read = await readProjectArchive(Buffer.concat(chunks));
      project = await unpackProject(read.archive, read.root);
      // The links are unpacked as links: only the builder's checks keep them in.
      expect((await lstat(join(project.dir, 'web'))).isSymbolicLink()).toBe(true);
      expect(await contextDirOf(project, 'web')).toBeUndefined();
      expect(await contextDirOf(project, 'up')).toBeUndefined();
      const root = (await contextDirOf(project, '')) ?? '';
      expect(root).not.toBe('');
      // A Dockerfile named through the link is none: nothing outside the project is read.
      expect(await prepareDockerfile(root, 'up/etc/passwd', {})).toBeUndefined();
      expect(await prepareDockerfile(root, 'web/passwd', {})).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('is refused when missing or a file', async () => {
    const root = await unpacked({ 'docker-compose.yml': '', 'file.txt': '' });
    expect(await contextDirOf(root, 'missing')).toBeUndefined();
    expect(await contextDirOf(root, 'file.txt')).toBeUndefined();
  });

  it("fills a Dockerfile.template in for the fleet's device type, leaving unknown variables", async () => {
    const root = await unpacked({
      'Dockerfile.template':
        'FROM balenalib/%%BALENA_MACHINE_NAME%%-debian\nRUN echo %%BALENA_ARCH%% %%OTHER%%\n',
    });
    const dir = (await contextDirOf(root, '')) ?? '';
    expect(
      await prepareDockerfile(dir, undefined, {
        BALENA_MACHINE_NAME: 'raspberrypi4-64',
        BALENA_ARCH: 'aarch64',
      }),
    ).toEqual({
      dockerfile: 'Dockerfile',
      fromTemplate: true,
      text: 'FROM balenalib/raspberrypi4-64-debian\nRUN echo aarch64 %%OTHER%%\n',
    });
    expect(await readFile(`${dir}/Dockerfile`, 'utf8')).toBe(
      'FROM balenalib/raspberrypi4-64-debian\nRUN echo aarch64 %%OTHER%%\n',
    );
    expect(await prepareDockerfile(dir, 'missing.Dockerfile', {})).toBeUndefined();
  });
});
