import { describe, expect, it } from 'vitest';
import { compositionYaml } from './composition-yaml.js';

describe('compositionYaml', () => {
  it('writes a composition as docker-compose YAML', () => {
    const yaml = compositionYaml({
      version: '2.1',
      services: {
        main: {
          image: 'nginx:1.27',
          ports: ['80:80'],
          labels: { 'io.balena.features.dbus': '1' },
          privileged: true,
          cpu_shares: 512,
          command: null,
          healthcheck: { test: ['CMD', 'true'] },
          volumes: [],
          environment: {},
        },
      },
      volumes: { data: {} },
    });
    expect(yaml).toBe(
      [
        'version: "2.1"',
        'services:',
        '  main:',
        '    image: "nginx:1.27"',
        '    ports:',
        '      - "80:80"',
        '    labels:',
        '      io.balena.features.dbus: "1"',
        '    privileged: true',
        '    cpu_shares: 512',
        '    command: null',
        '    healthcheck:',
        '      test:',
        '        - "CMD"',
        '        - "true"',
        '    volumes: []',
        '    environment: {}',
        'volumes:',
        '  data: {}',
        '',
      ].join('\n'),
    );
  });

  it('quotes keys and strings that YAML would read otherwise, and nests lists of mappings', () => {
    expect(compositionYaml({ on: 'yes', '8080': 'a\nb: "c"', list: [{ a: 1, b: [2] }, [3]] })).toBe(
      [
        '"8080": "a\\nb: \\"c\\""',
        '"on": "yes"',
        'list:',
        '  - a: 1',
        '    b:',
        '      - 2',
        '  - - 3',
        '',
      ].join('\n'),
    );
  });

  it('writes an empty composition as an empty mapping', () => {
    expect(compositionYaml({})).toBe('{}\n');
  });
});
