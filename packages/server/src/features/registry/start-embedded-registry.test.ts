import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, loadConfig } from '../../infra/config/config.js';
import { startRegistryIfEmbedded } from './start-embedded-registry.js';

// The embedded registry's start decisions; a running one is checked in demo-build.int.test.ts.

let dataDir: string;
const configWith = (env: Record<string, string>): Config =>
  loadConfig({ FLOTILLA_DATA_DIR: dataDir, PORT: '8080', ...env });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-registry-start-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('the embedded registry at start', () => {
  it('is off unless asked for, and never replaces FLOTILLA_REGISTRY_URL', async () => {
    expect(configWith({}).embeddedRegistry).toBeUndefined();
    const external = configWith({
      FLOTILLA_EMBEDDED_REGISTRY: 'on',
      FLOTILLA_REGISTRY_URL: 'https://registry.example.com',
    });
    expect(external.embeddedRegistry).toBeUndefined();
    const started = await startRegistryIfEmbedded(
      external,
      () => undefined,
      () => undefined,
    );
    expect(started.config.registry?.host).toBe('registry.example.com');
  });

  it('goes on without one when its binary is missing (auto), saying why', async () => {
    const printed: string[] = [];
    const config = configWith({
      FLOTILLA_EMBEDDED_REGISTRY: 'auto',
      FLOTILLA_EMBEDDED_REGISTRY_BINARY: path.join(dataDir, 'no-such-registry'),
    });
    const started = await startRegistryIfEmbedded(
      config,
      (line) => printed.push(line),
      () => undefined,
    );
    expect(started.registry).toBeUndefined();
    expect(started.config.registry).toBeUndefined();
    expect(printed.join('\n')).toMatch(/No image registry: .*no-such-registry is missing/);
  });

  it('fails the start when it was required (on)', async () => {
    const config = configWith({
      FLOTILLA_EMBEDDED_REGISTRY: 'on',
      FLOTILLA_EMBEDDED_REGISTRY_BINARY: path.join(dataDir, 'no-such-registry'),
    });
    await expect(
      startRegistryIfEmbedded(
        config,
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow(/Cannot start the embedded registry: .*is missing/);
  });

  it('needs a fixed port, since image locations keep the address', async () => {
    const printed: string[] = [];
    const config = {
      ...configWith({
        FLOTILLA_EMBEDDED_REGISTRY: 'auto',
        FLOTILLA_EMBEDDED_REGISTRY_BINARY: '/bin/sh',
      }),
      port: 0,
    };
    const started = await startRegistryIfEmbedded(
      config,
      (line) => printed.push(line),
      () => undefined,
    );
    expect(started.registry).toBeUndefined();
    expect(printed.join('\n')).toMatch(/needs a fixed PORT/);
  });
});
