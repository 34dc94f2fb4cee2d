import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuilderWorld, startBuilderWorld } from '../../test-support/builder-world.js';
import type { FleetFixture } from '../../test-support/fixtures.js';

// `.balena/balena.yml` on a real engine and registry: build variables and secrets reach the
// services they are for, read back from the pushed images, the secrets in none of their layers.

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

  it('mounts its build secrets at /run/secrets in the RUN steps of the services they are for, and in no layer, history or log', async () => {
    const token = 'token-9f3b2c-never-shown';
    const shared = 'shared-51aa07-never-shown';
    // The Dockerfiles compare digests: the secrets themselves are in no file of the contexts.
    const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');
    const matches = (file: string, secret: string) =>
      `test "$(sha256sum < /run/secrets/${file} | cut -c1-64)" = ${digest(secret)}`;
    const answer = await world.upload(fleet, {
      'docker-compose.yml': [
        'services:',
        '  web:',
        '    build: ./web',
        '  worker:',
        '    build:',
        '      context: .',
        '      dockerfile: worker.Dockerfile',
        '',
      ].join('\n'),
      '.balena/balena.yml': [
        'build-variables:',
        '  services:',
        '    worker:',
        '      - GREETING=hello worker',
        'build-secrets:',
        '  global:',
        '    - source: shared.txt',
        '      dest: shared',
        '  services:',
        '    worker:',
        '      - source: nested/token.txt',
        '        dest: token',
        '',
      ].join('\n'),
      '.balena/secrets/shared.txt': shared,
      '.balena/secrets/nested/token.txt': token,
      'web/Dockerfile': `${recorder}RUN ${matches('shared', shared)} && test ! -e /run/secrets/token && echo web-saw-shared-only\n`,
      'web/busybox': busybox,
      // The worker's context is the project: the secrets' folder is not in it.
      'worker.Dockerfile': [
        recorder,
        `RUN ${matches('token', token)} && ${matches('shared', shared)} && echo worker-saw-both`,
        'COPY . /src',
        'RUN test ! -e /src/.balena/secrets && test -e /src/.balena/balena.yml && echo secrets-not-in-context',
        '',
      ].join('\n'),
      busybox,
    });
    expect(answer.status).toBe(201);
    expect(answer.result, answer.log.join('\n')).toBe('success');
    expect(answer.log).toEqual(
      expect.arrayContaining([
        '[web] Building with 1 build secret(s) at /run/secrets',
        '[web] web-saw-shared-only',
        '[worker] Building with 2 build secret(s) at /run/secrets',
        '[worker] worker-saw-both',
        '[worker] secrets-not-in-context',
      ]),
    );
    const log = answer.log.join('\n');
    for (const secret of [token, shared]) expect(log).not.toContain(secret);
    const images = await world.imagesOf(answer.releaseId);
    expect(images.map((image) => [image.service, image.status])).toEqual([
      ['web', 'success'],
      ['worker', 'success'],
    ]);
    for (const image of images) {
      const pushed = await world.pushed(image);
      const history = JSON.stringify(pushed.config.history);
      expect(history).toContain('/run/secrets');
      const layers = pushed.layers.map((layer) => gunzipSync(layer).toString('latin1'));
      for (const secret of [token, shared]) {
        expect(history).not.toContain(secret);
        for (const layer of layers) expect(layer).not.toContain(secret);
      }
      if (image.service === 'worker') {
        // Build variables reach a build with secrets too.
        expect(pushed.config.config.Env).toContain(
          'SEEN=greeting=hello worker web_only= from_compose=',
        );
      }
    }
  }, 300_000);

  it('fails the service whose secret is not a file of .balena/secrets, saying which', async () => {
    const answer = await world.upload(fleet, {
      'docker-compose.yml': 'services:\n  app:\n    build: .\n',
      '.balena/balena.yml':
        'build-secrets:\n  global:\n    - source: absent.txt\n      dest: absent\n',
      Dockerfile: recorder,
      busybox,
    });
    expect(answer.result).toBe('failed');
    expect(answer.log).toContain(
      "[app] Error: The build secret 'absent.txt' is not a file of .balena/secrets",
    );
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
