import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../api-client.js';
import type { Logger } from '../logger.js';
import {
  agentProfileOf,
  architectureMismatch,
  detectArchitecture,
  detectBoard,
  warnOnDeviceTypeMismatch,
} from './agent-profile.js';

const recordingLogger = () => {
  const warnings: string[] = [];
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => {
      warnings.push(message);
    },
    error: () => undefined,
    child: () => logger,
  };
  return { logger, warnings };
};

// The public device type answer of the API, for one type of one architecture.
const apiAnswering = (slug: string, architecture: string) =>
  new ApiClient({
    baseUrl: 'http://api.test',
    fetch: async (url) => {
      // A strict stub: only the device type look-up is expected.
      if (!String(url).startsWith('http://api.test/v7/device_type?')) {
        throw new Error(`unexpected request ${String(url)}`);
      }
      return new Response(
        JSON.stringify({ d: [{ slug, is_of__cpu_architecture: [{ slug: architecture }] }] }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    },
  });

describe('agent profile', () => {
  it('names the CPU as balena does, and null for one balena has no name for', () => {
    expect(detectArchitecture('arm64')).toBe('aarch64');
    expect(detectArchitecture('x64')).toBe('amd64');
    expect(detectArchitecture('arm')).toBe('armv7hf');
    expect(detectArchitecture('riscv64')).toBeNull();
  });

  it("reads the board's model from the device tree, null without one", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'board-'));
    const model = join(dir, 'model');
    await writeFile(model, 'Raspberry Pi 4 Model B Rev 1.4\0');
    expect(await detectBoard(model)).toBe('Raspberry Pi 4 Model B Rev 1.4');
    expect(await detectBoard(join(dir, 'missing'))).toBeNull();
  });

  it('says whether it runs containers and lists the settings it applies', () => {
    const profile = agentProfileOf({
      managesContainers: false,
      architecture: 'amd64',
      board: null,
    });
    expect(profile.manages_containers).toBe(false);
    expect(profile.honoured_config).toContain('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(profile.honoured_config.some((name) => name.startsWith('BALENA_HOST_'))).toBe(false);
  });

  it('warns when the device type is for a CPU this one cannot run', async () => {
    expect(architectureMismatch('raspberrypi4-64', 'aarch64', 'aarch64')).toBeNull();
    // 64-bit ARM runs 32-bit ARM releases.
    expect(architectureMismatch('raspberrypi3', 'armv7hf', 'aarch64')).toBeNull();
    const { logger, warnings } = recordingLogger();
    await warnOnDeviceTypeMismatch(
      apiAnswering('raspberrypi4-64', 'aarch64'),
      'raspberrypi4-64',
      'amd64',
      logger,
    );
    expect(warnings).toEqual([
      "the device type raspberrypi4-64 is for aarch64 CPUs, but this device's CPU is amd64: its releases cannot run here; choose a device type for amd64",
    ]);
    const quiet = recordingLogger();
    await warnOnDeviceTypeMismatch(
      apiAnswering('generic-amd64', 'amd64'),
      'generic-amd64',
      'amd64',
      quiet.logger,
    );
    expect(quiet.warnings).toEqual([]);
  });
});
