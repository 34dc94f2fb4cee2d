import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretMounts, takeSecretFiles, withSecretMounts } from './build-secrets.js';
import { bytesField, textOf, varintField, wireFields } from './protobuf-wire.js';

describe('build secrets', () => {
  it('adds the mounts to every RUN instruction, not to continued lines, comments or other instructions', () => {
    const dockerfile = [
      'FROM scratch AS base',
      '# RUN in a comment',
      'RUN echo one && \\',
      '    RUN-looking continuation',
      'run ["/bin/echo", "two"]',
      'COPY RUN /RUN',
      '  RUN\techo three',
      '',
    ].join('\n');
    expect(withSecretMounts(dockerfile, '--mount=X')).toBe(
      [
        'FROM scratch AS base',
        '# RUN in a comment',
        'RUN --mount=X echo one && \\',
        '    RUN-looking continuation',
        'run --mount=X ["/bin/echo", "two"]',
        'COPY RUN /RUN',
        '  RUN --mount=X\techo three',
        '',
      ].join('\n'),
    );
  });

  it("follows the Dockerfile's escape directive", () => {
    const dockerfile = [
      '# escape=`',
      'FROM scratch',
      'RUN echo a `',
      'RUN not an instruction',
      'RUN b',
    ].join('\n');
    expect(withSecretMounts(dockerfile, '--m')).toBe(
      [
        '# escape=`',
        'FROM scratch',
        'RUN --m echo a `',
        'RUN not an instruction',
        'RUN --m b',
      ].join('\n'),
    );
  });

  it('mounts each secret a service names at /run/secrets/<dest>, or names the one missing', () => {
    const files = new Map([
      ['a.txt', Buffer.from('A')],
      ['dir/b', Buffer.from('B')],
    ]);
    const mounts = secretMounts(files, [
      { source: 'a.txt', dest: 'first' },
      { source: 'dir/b', dest: 'sub/second' },
    ]);
    expect(mounts).toEqual({
      secrets: new Map([
        ['secret-0', Buffer.from('A')],
        ['secret-1', Buffer.from('B')],
      ]),
      flags:
        '--mount=type=secret,id=secret-0,target=/run/secrets/first --mount=type=secret,id=secret-1,target=/run/secrets/sub/second',
    });
    expect(secretMounts(files, [{ source: 'c', dest: 'c' }])).toEqual({ missing: 'c' });
    expect(secretMounts(files, [])).toEqual({ secrets: new Map(), flags: '' });
  });

  it("takes the project's secret files out of its folder, regular files only", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-secrets-'));
    try {
      await mkdir(join(dir, '.balena', 'secrets', 'nested'), { recursive: true });
      await writeFile(join(dir, '.balena', 'secrets', 'a.txt'), 'A');
      await writeFile(join(dir, '.balena', 'secrets', 'nested', 'b'), 'B');
      await writeFile(join(dir, 'outside'), 'O');
      await symlink(join(dir, 'outside'), join(dir, '.balena', 'secrets', 'link'));
      await writeFile(join(dir, '.balena', 'balena.yml'), 'build-secrets: {}\n');
      const files = await takeSecretFiles(dir);
      expect([...files.entries()].sort()).toEqual([
        ['a.txt', Buffer.from('A')],
        ['nested/b', Buffer.from('B')],
      ]);
      expect(await readdir(join(dir, '.balena'))).toEqual(['balena.yml']);
      expect(await takeSecretFiles(dir)).toEqual(new Map());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads and removes nothing through a link of the project', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-secrets-'));
    try {
      const outside = join(dir, 'server');
      await mkdir(join(outside, 'secrets'), { recursive: true });
      await writeFile(join(outside, 'secrets', 'key'), 'the server’s');
      for (const [project, link, target] of [
        ['linked-balena', '.balena', outside],
        ['linked-secrets', '.balena/secrets', join(outside, 'secrets')],
      ] as const) {
        await mkdir(join(dir, project, '.balena'), { recursive: true });
        if (link === '.balena') await rm(join(dir, project, '.balena'), { recursive: true });
        await symlink(target, join(dir, project, link));
        expect(await takeSecretFiles(join(dir, project))).toEqual(new Map());
      }
      expect(await readdir(join(outside, 'secrets'))).toEqual(['key']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("protobuf's wire format", () => {
  it('reads back the fields it writes, lengths over 127 bytes included', () => {
    const long = Buffer.alloc(300, 'x');
    const message = Buffer.concat([
      varintField(1, 1),
      bytesField(2, long),
      bytesField(3, Buffer.from('id')),
    ]);
    const fields = wireFields(message);
    expect(fields).toEqual([
      { number: 1, kind: 'varint', value: 1n },
      { number: 2, kind: 'bytes', value: long },
      { number: 3, kind: 'bytes', value: Buffer.from('id') },
    ]);
    expect(textOf(fields, 3)).toBe('id');
    expect(() => wireFields(bytesField(1, long).subarray(0, 100))).toThrow(/runs past its message/);
  });
});
