import { describe, expect, it } from 'vitest';
import { projectTarball } from '../../test-support/project-tarball.js';
import { applyBuildSettings, parseBuildSettings } from './build-settings.js';
import { parseComposeFile } from './compose-file.js';
import { readProjectArchive } from './project-archive.js';

const settings = [
  'build-variables:',
  '  global:',
  '    - GREETING=hello',
  '    - EMPTY=',
  '    - URL=https://example.test/?a=b',
  '  services:',
  '    web:',
  '      - GREETING=hello web',
  '      - WEB_ONLY=1',
  '    constructor:',
  '      - NAMED=constructor',
  'build-secrets:',
  '  services:',
  '    worker:',
  '      - source: token.txt',
  '        dest: token',
  '',
].join('\n');

const compose = [
  'services:',
  '  web:',
  '    build:',
  '      context: .',
  '      args:',
  '        URL: from-compose',
  '  worker:',
  '    build: .',
  '  db:',
  '    image: postgres:17',
  '  constructor:',
  '    build: .',
  '',
].join('\n');

describe("the project's build settings (.balena/balena.yml)", () => {
  it('gives each built service the global variables, then its own, then its compose args; secrets to whom they are named', () => {
    const project = applyBuildSettings(
      parseComposeFile(compose, 'docker-compose.yml'),
      parseBuildSettings(settings),
    );
    const [web, worker, db, named] = project.services;
    expect(web?.build).toMatchObject({
      args: { GREETING: 'hello web', EMPTY: '', URL: 'from-compose', WEB_ONLY: '1' },
      secrets: [],
    });
    expect(worker?.build).toMatchObject({
      args: { GREETING: 'hello', EMPTY: '', URL: 'https://example.test/?a=b' },
      secrets: [{ source: 'token.txt', dest: 'token' }],
    });
    expect(db?.build).toBeUndefined();
    expect(named?.build?.args).toMatchObject({ NAMED: 'constructor', GREETING: 'hello' });
    // The release's composition stays as the compose file says.
    expect(project.composition).toEqual(
      parseComposeFile(compose, 'docker-compose.yml').composition,
    );
  });

  it('leaves a project without build settings as it is', () => {
    const project = parseComposeFile(compose, 'docker-compose.yml');
    for (const text of [undefined, '', 'other-key: 1\n']) {
      expect(applyBuildSettings(project, parseBuildSettings(text)).services[1]?.build).toEqual({
        context: '',
        dockerfile: undefined,
        args: {},
        target: undefined,
        secrets: [],
      });
    }
  });

  it.each([
    ['- a list', /\.balena\/balena\.yml: it must be a mapping/],
    ['build-variables: [A=1]', /'build-variables' must be a mapping of 'global' and 'services'/],
    ['build-variables:\n  global: A=1', /'build-variables.global' must be a list/],
    ['build-variables:\n  global: [NOVALUE]', /must be a list of NAME=value, got 'NOVALUE'/],
    ['build-variables:\n  global: ["1A=x"]', /must be a list of NAME=value, got '1A=x'/],
    ['build-variables:\n  global: [{A: 1}]', /must be a list of NAME=value/],
    ['build-variables:\n  services: [web]', /'build-variables.services' must be a mapping/],
    [
      'build-secrets:\n  global: [token]',
      /'build-secrets.global' must be a list of \{ source, dest \}/,
    ],
    ['build-secrets:\n  global: [{dest: token}]', /entries need 'source'/],
    [
      'build-secrets:\n  global: [{source: ../../etc/passwd, dest: x}]',
      /'source' must be a path inside its folder/,
    ],
    [
      'build-secrets:\n  global: [{source: a, dest: /x}]',
      /'dest' must be a path inside its folder/,
    ],
    ['build-secrets:\n  global: [{source: a, dest: "x,readonly"}]', /'dest' must be a path inside/],
    ['build-variables: [', /\.balena\/balena\.yml is not valid YAML/],
  ])('refuses %j with a 400 naming the problem', (text, message) => {
    expect(() => parseBuildSettings(text)).toThrow(message);
  });

  it('is read from .balena/ of the project, at the root or in its one top-level folder', async () => {
    for (const root of ['', 'app-main/']) {
      const files = await readProjectArchive(
        await projectTarball({
          [`${root}Dockerfile`]: 'FROM scratch\n',
          [`${root}.balena/balena.yml`]: settings,
          [`${root}.balena/secrets/token.txt`]: 'secret',
          [`${root}service/.balena/balena.yml`]: 'not: these\n',
        }),
      );
      expect(files).toMatchObject({ root, buildSettings: settings, balenaYml: undefined });
    }
  });
});
