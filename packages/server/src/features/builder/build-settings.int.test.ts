import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, startBuilderWorld } from '../../test-support/builder-world.js';
import type { FleetFixture } from '../../test-support/fixtures.js';
import { buildSecretsRefusal } from './build-settings.js';

// `.balena/balena.yml` on a real engine and registry: build variables reach the services they
// are for, read back from the pushed images; a project with build secrets is not built.

let world: BuilderWorld;
let fleet: FleetFixture;
let busybox: Buffer;

// A device type of this machine's CPU architecture, which the engine builds for natively.
const deviceType = process.arch === 'arm64' ? 'raspberrypi4-64' : 'generic-amd64';

// An image from scratch around the static busybox that records what its build saw: its
// arguments, in its configuration's environment and in a file.
const recorder = [
  'FROM scratch',
  'COPY busybox /bin/busybox',
  'RUN ["/bin/busybox", "--install", "-s", "/bin"]',
  'ARG GREETING',
  'ARG WEB_ONLY',
  'ARG FROM_COMPOSE',
  'RUN echo "greeting=$GREETING web_only=$WEB_ONLY from_compose=$FROM_COMPOSE" > /seen',
  'ENV SEEN="greeting=$GREETING web_only=$WEB_ONLY from_compose=$FROM_COMPOSE"',
  '',
].join('\n');

const compose = [
  'services:',
  '  web:',
  '    build: ./web',
  '  worker:',
  '    build:',
  '      context: ./worker',
  '      args:',
  '        FROM_COMPOSE: compose-wins',
  '',
].join('\n');

beforeAll(async () => {
  busybox = await readFile('/bin/busybox');
  world = await startBuilderWorld();
  fleet = await world.fleet('settings', deviceType);
}, 120_000);

afterAll(async () => {
  await world.stop();
});

describe("the project's .balena/balena.yml", () => {
  it('hands its build variables to the services they are for, global ones to every service', async () => {
    const answer = await world.upload(fleet, {
      'docker-compose.yml': compose,
      '.balena/balena.yml': [
        'build-variables:',
        '  global:',
        '    - GREETING=hello all',
        '    - FROM_COMPOSE=global-loses',
        '  services:',
        '    web:',
        '      - WEB_ONLY=for web',
        '    worker:',
        '      - GREETING=hello worker',
        '',
      ].join('\n'),
      'web/Dockerfile': recorder,
      'web/busybox': busybox,
      'worker/Dockerfile': recorder,
      'worker/busybox': busybox,
    });
    expect(answer.status).toBe(201);
    expect(answer.result, answer.log.join('\n')).toBe('success');
    const images = await world.imagesOf(answer.releaseId);
    expect(images.map((image) => image.service)).toEqual(['web', 'worker']);
    const seenBy = async (service: string) => {
      const image = images.find((built) => built.service === service);
      if (image === undefined) throw new Error(`no image of ${service}`);
      return (await world.pushed(image)).config.config.Env?.find((entry) =>
        entry.startsWith('SEEN='),
      );
    };
    expect(await seenBy('web')).toBe(
      'SEEN=greeting=hello all web_only=for web from_compose=global-loses',
    );
    expect(await seenBy('worker')).toBe(
      'SEEN=greeting=hello worker web_only= from_compose=compose-wins',
    );
  }, 300_000);

  it('refuses a project with build secrets in its build log, building nothing and showing no secret', async () => {
    const before = await world.engine.get('/images/json?all=1');
    const answer = await world.upload(fleet, {
      'docker-compose.yml': compose,
      '.balena/balena.yml': [
        'build-secrets:',
        '  services:',
        '    worker:',
        '      - source: token.txt',
        '        dest: token',
        '',
      ].join('\n'),
      '.balena/secrets/token.txt': 'a-secret-never-shown',
      'web/Dockerfile': recorder,
      'web/busybox': busybox,
      'worker/Dockerfile': `${recorder}RUN cat /run/secrets/token\n`,
      'worker/busybox': busybox,
    });
    expect(answer.status).toBe(201);
    expect(answer.result).toBe('failed');
    expect(answer.log).toEqual([
      `[web] Error: ${buildSecretsRefusal}`,
      `[worker] Error: ${buildSecretsRefusal}`,
      'Build failed: see the services above',
    ]);
    expect(answer.log.join('\n')).not.toContain('a-secret-never-shown');
    const images = await world.imagesOf(answer.releaseId);
    expect(images.map((image) => [image.status, image.error])).toEqual([
      ['failed', buildSecretsRefusal],
      ['failed', buildSecretsRefusal],
    ]);
    expect((await world.engine.get('/images/json?all=1')).body).toBe(before.body);
  }, 300_000);

  it('answers 400 naming the problem for build settings it cannot read', async () => {
    const answer = await world.upload(fleet, {
      Dockerfile: recorder,
      busybox,
      '.balena/balena.yml': 'build-variables:\n  global:\n    - NOT A VARIABLE\n',
    });
    expect(answer.status).toBe(400);
    expect(answer.result).toMatch(
      /\.balena\/balena\.yml: 'build-variables.global' must be a list of NAME=value, got 'NOT A VARIABLE'/,
    );
  });
});
