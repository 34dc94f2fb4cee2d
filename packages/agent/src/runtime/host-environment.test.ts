import { describe, expect, it } from 'vitest';
import type { TargetService } from '../target-types.js';
import { environmentFileText, type FileSystem, ServiceEnvironments } from './host-environment.js';

const service = (name: string, environment: Record<string, string>): TargetService => ({
  name,
  id: 1,
  imageId: 1,
  image: `${name}:1`,
  running: true,
  environment,
  labels: {},
  composition: {},
});

const memoryFs = (
  files: Record<string, string> = {},
): FileSystem & { files: Record<string, string> } => ({
  files,
  read: async (file) => files[file] ?? null,
  write: async (file, text) => {
    files[file] = text;
  },
});

describe('service environment files', () => {
  it('writes NAME=value lines, quoting and escaping what a shell or systemd would read otherwise', () => {
    expect(
      environmentFileText({
        PLAIN: 'a-b_c.d:1/2',
        SPACED: 'hello world',
        TRICKY: 'say "hi" $HOME `id` \\ done',
        LINES: 'one\ntwo',
        EMPTY: '',
      }),
    ).toBe(
      [
        'EMPTY=',
        'LINES="one\ntwo"',
        'PLAIN=a-b_c.d:1/2',
        'SPACED="hello world"',
        'TRICKY="say \\"hi\\" \\$HOME \\`id\\` \\\\ done"',
        '',
      ].join('\n'),
    );
  });

  it('reports the services whose variables changed, and writes their files', async () => {
    const fs = memoryFs({ '/run/env/db.env': 'OLD=1\n' });
    const environments = new ServiceEnvironments('/run/env', fs);
    // After a start: a new file with variables, and a file that differs, are changes; a service
    // with no variables and no file is not.
    const first = await environments.apply([
      service('web', { GREETING: 'hello' }),
      service('db', { NEW: '2' }),
      service('cache', {}),
    ]);
    expect(first.map((change) => [change.service.name, change.names])).toEqual([
      ['web', ['GREETING']],
      ['db', ['NEW']],
    ]);
    expect(fs.files).toEqual({
      '/run/env/web.env': 'GREETING=hello\n',
      '/run/env/db.env': 'NEW=2\n',
      '/run/env/cache.env': '',
    });
    const again = await environments.apply([
      service('web', { GREETING: 'bonjour' }),
      service('db', { NEW: '2' }),
      service('cache', {}),
    ]);
    expect(again.map((change) => [change.service.name, change.names])).toEqual([
      ['web', ['GREETING']],
    ]);
    expect(fs.files['/run/env/web.env']).toBe('GREETING=bonjour\n');
  });

  it('without a directory, compares with the last target only', async () => {
    const environments = new ServiceEnvironments(null);
    expect(await environments.apply([service('web', { A: '1' })])).toEqual([]);
    expect(
      (await environments.apply([service('web', { B: '2' })])).map((change) => change.names),
    ).toEqual([['A', 'B']]);
  });
});
