import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { describe, expect, it } from 'vitest';
import {
  buildSource,
  mergedVariables,
  tarballUrlProblem,
  variableProblems,
} from './advanced-configuration.js';

describe("the create dialog's advanced configuration", () => {
  it('lets a variable the user set replace the balena.yml one of the same name', () => {
    expect(
      mergedVariables(
        [
          { name: 'COLOR', value: 'blue' },
          { name: 'SIZE', value: '3' },
        ],
        [{ name: ' COLOR ', value: 'red' }],
      ),
    ).toEqual([
      { name: 'SIZE', value: '3' },
      { name: 'COLOR', value: 'red' },
    ]);
  });

  it('builds from the tarball URL, else from the repository archive, else nothing', () => {
    const contract = {
      url: 'https://github.com/acme/widget',
      owner: 'acme',
      repo: 'widget',
      branch: 'main',
      archiveUrl: 'https://github.com/acme/widget/archive/main.tar.gz',
      contract: {
        name: null,
        type: null,
        version: null,
        description: null,
        defaultDeviceType: null,
        supportedDeviceTypes: [],
        environmentVariables: [],
        configVariables: [],
      },
    };
    expect(buildSource('https://example.com/p.tar.gz', contract)).toBe(
      'https://example.com/p.tar.gz',
    );
    expect(buildSource('', contract)).toBe(contract.archiveUrl);
    expect(buildSource('', undefined)).toBeNull();
  });

  it('accepts only http(s) tarball URLs', () => {
    expect(tarballUrlProblem('')).toBeUndefined();
    expect(tarballUrlProblem('https://example.com/p.tar.gz')).toBeUndefined();
    expect(tarballUrlProblem('ftp://example.com/p.tar.gz')).toMatch(/^Enter an http\(s\) URL/);
  });

  it('names repeated, empty and invalid variable names', () => {
    const rules = configVarsAnswer();
    expect(
      variableProblems(
        'environment',
        [
          { name: 'MODE', value: '' },
          { name: 'MODE', value: '' },
          { name: '', value: 'x' },
          { name: 'BALENA_HOST_CONFIG_gpu_mem', value: '1' },
        ],
        rules,
      ),
    ).toEqual([
      undefined,
      'A variable with this name already exists',
      'Name is required',
      'Configuration variables are managed through the Configuration page.',
    ]);
    expect(variableProblems('configuration', [{ name: 'BALENA_X', value: '1' }], rules)).toEqual([
      undefined,
    ]);
    // Before the rules load, only an empty name is refused.
    expect(variableProblems('environment', [{ name: '', value: '' }], undefined)).toEqual([
      'Name is required',
    ]);
  });
});
