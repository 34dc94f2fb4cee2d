import { describe, expect, it } from 'vitest';
import { parseComposeFile, singleDockerfileProject } from './compose-file.js';

const serviceOf = (service: string) =>
  parseComposeFile(`services:\n  app:\n${service}`, 'docker-compose.yml').services[0];

describe("a compose service's build step", () => {
  it('reads a path, or a mapping of context, dockerfile, args and target', () => {
    expect(serviceOf('    build: ./app/\n')?.build).toEqual({
      context: 'app',
      dockerfile: undefined,
      args: {},
      target: undefined,
      secrets: [],
    });
    expect(
      serviceOf(
        [
          '    image: acme/app',
          '    build:',
          '      context: .',
          '      dockerfile: docker/app.Dockerfile',
          '      args: [VERSION=1.2, DEBUG]',
          '      target: runtime',
          '      cache_from: [acme/app]',
          '',
        ].join('\n'),
      ),
    ).toMatchObject({
      image: 'acme/app',
      build: {
        context: '',
        dockerfile: 'docker/app.Dockerfile',
        args: { VERSION: '1.2', DEBUG: '' },
        target: 'runtime',
      },
    });
  });

  it.each([
    ['    build: ../outside\n', /'build' must be a path inside the project/],
    ['    build: /etc\n', /'build' must be a path inside the project/],
    ['    build:\n      context: app/../../x\n', /'build.context' must be a path inside/],
    ['    build:\n      dockerfile: ../Dockerfile\n', /'build.dockerfile' must be a path inside/],
    ['    build:\n      context: .\n      squash: true\n', /unknown build key 'squash'/],
    ['    build: [a]\n', /'build' must be a path or a mapping/],
    ['    build:\n      target: [a]\n', /'build.target' must be a text/],
  ])('refuses %j', (service, message) => {
    expect(() => serviceOf(service)).toThrow(message);
  });
});

describe('a single-Dockerfile project', () => {
  it("is balena's one service, main, built from the project's root", () => {
    const project = singleDockerfileProject();
    expect(project.services.map((service) => [service.name, service.build?.context])).toEqual([
      ['main', ''],
    ]);
    expect(project.composition).toMatchObject({
      version: '2.1',
      services: { main: { build: { context: '.' }, network_mode: 'host' } },
    });
  });
});
