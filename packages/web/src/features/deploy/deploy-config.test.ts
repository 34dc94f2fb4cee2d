import { describe, expect, it } from 'vitest';
import {
  deployConfigKey,
  deployConfigMaxAgeMs,
  loadDeployConfig,
  parseDeployParams,
  saveDeployConfig,
} from './deploy-config.js';

// A strict Storage: only what the code uses.
const memoryStorage = (): Storage & { entries: Map<string, string> } => {
  const entries = new Map<string, string>();
  return {
    entries,
    get length() {
      return entries.size;
    },
    clear: () => entries.clear(),
    getItem: (key) => entries.get(key) ?? null,
    key: () => {
      throw new Error('not used');
    },
    removeItem: (key) => {
      entries.delete(key);
    },
    setItem: (key, value) => {
      entries.set(key, value);
    },
  };
};

describe('parseDeployParams', () => {
  it('reads the tarball, name, device type and variables', () => {
    const config = parseDeployParams(
      '?tarballUrl=https%3A%2F%2Fexample.com%2Fp.tar.gz&name=Sound%20box&deviceType=fincm3' +
        '&description=Music&author=Ada&env.VOLUME=80&config.BALENA_HOST_CONFIG_gpu_mem=128&other=1',
    );
    expect(config).toMatchObject({
      tarballUrl: 'https://example.com/p.tar.gz',
      repoUrl: null,
      name: 'Sound box',
      description: 'Music',
      author: 'Ada',
      deviceType: 'fincm3',
      environment: [{ name: 'VOLUME', value: '80' }],
      configuration: [{ name: 'BALENA_HOST_CONFIG_gpu_mem', value: '128' }],
    });
  });

  it("takes a GitHub repository's default-branch archive, its name and the default device type", () => {
    expect(parseDeployParams('?repoUrl=https://github.com/acme/balena-sound.git')).toMatchObject({
      tarballUrl: 'https://github.com/acme/balena-sound/archive/HEAD.tar.gz',
      repoUrl: 'https://github.com/acme/balena-sound.git',
      name: 'balena-sound',
      deviceType: 'raspberrypi4-64',
    });
  });

  it('names nothing to deploy without an http(s) tarball or a GitHub repository', () => {
    expect(parseDeployParams('')).toBeNull();
    expect(parseDeployParams('?name=x')).toBeNull();
    expect(parseDeployParams('?tarballUrl=file:///etc/passwd')).toBeNull();
    expect(parseDeployParams('?repoUrl=https://gitlab.com/a/b')).toBeNull();
  });
});

describe('the kept deploy configuration', () => {
  const config = parseDeployParams('?tarballUrl=https://example.com/p.tar.gz&name=kept');
  if (config === null) throw new Error('fixture');
  const saved = Date.UTC(2026, 10, 24, 12);

  it('is found for a day and dropped once older', () => {
    const storage = memoryStorage();
    saveDeployConfig(storage, config, saved);
    expect(loadDeployConfig(storage, saved + deployConfigMaxAgeMs)).toEqual({
      kind: 'found',
      config,
    });
    expect(loadDeployConfig(storage, saved + deployConfigMaxAgeMs + 1)).toEqual({ kind: 'none' });
    expect(storage.entries.has(deployConfigKey)).toBe(false);
  });

  it('is dropped and reported when unreadable', () => {
    const storage = memoryStorage();
    storage.setItem(deployConfigKey, '{not json');
    expect(loadDeployConfig(storage, saved)).toEqual({ kind: 'unreadable' });
    expect(storage.entries.size).toBe(0);
    storage.setItem(deployConfigKey, JSON.stringify({ savedAt: saved, rawConfig: 'name=x' }));
    expect(loadDeployConfig(storage, saved)).toEqual({ kind: 'unreadable' });
    expect(loadDeployConfig(storage, saved)).toEqual({ kind: 'none' });
  });
});
