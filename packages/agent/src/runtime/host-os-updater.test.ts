import { describe, expect, it } from 'vitest';
import {
  HostOsUpdater,
  notSupportedReason,
  type OsUpdateState,
  type UpdaterEngine,
  type UpdaterRun,
} from './host-os-updater.js';

// Real mode's host OS update: refused with the reason the console shows unless the operator
// enabled it; otherwise the release's updater image runs, its progress lines become
// provisioning_state / provisioning_progress, success reboots and failure reports stderr's reason.
// The engine is a strict fake standing in for Docker's API (a real engine would update this host).

const target = {
  releaseId: 12,
  version: '6.1.0',
  updaterImage: 'registry.example.com/balena-os/raspberrypi4-64:6.1.0',
};

type Script = { pull?: Error; lines?: [string, boolean][]; exitCode?: number };

const setup = (options: { enabled: boolean; engine?: boolean; script?: Script }) => {
  const runs: UpdaterRun[] = [];
  const pulls: string[] = [];
  const states: OsUpdateState[] = [];
  const logs: string[] = [];
  let reboots = 0;
  const script = options.script ?? {};
  const engine: UpdaterEngine = {
    async pull(image, onProgress) {
      pulls.push(image);
      if (script.pull) throw script.pull;
      onProgress(50);
      onProgress(100);
    },
    async run(spec, onLine) {
      runs.push(spec);
      for (const [line, isStdErr] of script.lines ?? []) onLine(line, isStdErr);
      return script.exitCode ?? 0;
    },
  };
  const updater = new HostOsUpdater({
    enabled: options.enabled,
    engine: options.engine === false ? null : engine,
    device: { uuid: 'a'.repeat(32), deviceType: 'raspberrypi4-64' },
    osVersion: () => 'balenaOS 6.0.13',
  });
  updater.connect({
    log: (message) => logs.push(message),
    changed: () => states.push(updater.state),
    reboot: () => {
      reboots++;
    },
  });
  return { updater, runs, pulls, states, logs, reboots: () => reboots };
};

describe('HostOsUpdater', () => {
  it('answers that OS updates are not supported on a host the operator did not enable', async () => {
    const { updater, pulls, states } = setup({ enabled: false });
    updater.apply(target);
    await updater.settled;
    expect(pulls).toEqual([]);
    expect(states.at(-1)).toEqual({
      provisioning_state: `OS update to balenaOS 6.1.0 failed: ${notSupportedReason}`,
      provisioning_progress: null,
    });
    // Not tried (nor reported) again for the same release.
    updater.apply(target);
    await updater.settled;
    expect(states).toHaveLength(1);
  });

  it('needs a container engine and an updater image', async () => {
    const noEngine = setup({ enabled: true, engine: false });
    noEngine.updater.apply(target);
    await noEngine.updater.settled;
    expect(noEngine.updater.state.provisioning_state).toBe(
      'OS update to balenaOS 6.1.0 failed: OS updates need a container engine on this host',
    );
    const noImage = setup({ enabled: true });
    noImage.updater.apply({ ...target, updaterImage: null });
    await noImage.updater.settled;
    expect(noImage.updater.state.provisioning_state).toMatch(/has no updater image/);
  });

  it('ignores a release that is not newer than the running OS', async () => {
    const { updater, pulls, states } = setup({ enabled: true });
    updater.apply({ ...target, version: '6.0.13' });
    updater.apply(null);
    await updater.settled;
    expect(pulls).toEqual([]);
    expect(states).toEqual([]);
  });

  it('runs the updater with the host mounted, reports its progress and reboots', async () => {
    const { updater, runs, states, reboots } = setup({
      enabled: true,
      script: {
        lines: [
          ['FLOTILLA_PROGRESS 40 writing the root filesystem of', false],
          ['some chatter', false],
          ['FLOTILLA_PROGRESS 90', false],
        ],
      },
    });
    updater.apply(target);
    await updater.settled;
    expect(runs).toEqual([
      {
        image: target.updaterImage,
        environment: {
          FLOTILLA_OS_TARGET_VERSION: '6.1.0',
          FLOTILLA_OS_CURRENT_VERSION: '6.0.13',
          FLOTILLA_OS_TARGET_RELEASE_ID: '12',
          FLOTILLA_DEVICE_UUID: 'a'.repeat(32),
          FLOTILLA_DEVICE_TYPE: 'raspberrypi4-64',
          FLOTILLA_HOST_ROOT: '/host',
        },
        binds: ['/:/host', '/dev:/dev'],
      },
    ]);
    expect(states.map((state) => [state.provisioning_state, state.provisioning_progress])).toEqual([
      ['OS update: downloading balenaOS 6.1.0', 0],
      ['OS update: downloading balenaOS 6.1.0', 50],
      ['OS update: downloading balenaOS 6.1.0', 100],
      ['OS update: applying balenaOS 6.1.0', 0],
      ['OS update: writing the root filesystem of balenaOS 6.1.0', 40],
      ['OS update: applying balenaOS 6.1.0', 90],
      ['OS update: rebooting into balenaOS 6.1.0', 100],
    ]);
    expect(reboots()).toBe(1);
  });

  it('reports the updater’s last stderr line when it fails, and does not reboot', async () => {
    const { updater, reboots, logs } = setup({
      enabled: true,
      script: {
        lines: [
          ['checking the data partition', true],
          ['not enough space on the data partition', true],
        ],
        exitCode: 2,
      },
    });
    updater.apply(target);
    await updater.settled;
    expect(updater.state).toEqual({
      provisioning_state:
        'OS update to balenaOS 6.1.0 failed: not enough space on the data partition',
      provisioning_progress: null,
    });
    expect(reboots()).toBe(0);
    expect(logs.at(-1)).toBe(
      'Host OS update to balenaOS 6.1.0 failed: not enough space on the data partition',
    );
  });

  it('names the exit code of a silent failure, and a pull that failed', async () => {
    const silent = setup({ enabled: true, script: { exitCode: 3 } });
    silent.updater.apply(target);
    await silent.updater.settled;
    expect(silent.updater.state.provisioning_state).toBe(
      'OS update to balenaOS 6.1.0 failed: the updater exited with code 3',
    );
    const unpulled = setup({ enabled: true, script: { pull: new Error('manifest unknown') } });
    unpulled.updater.apply(target);
    await unpulled.updater.settled;
    expect(unpulled.updater.state.provisioning_state).toBe(
      'OS update to balenaOS 6.1.0 failed: the updater image could not be pulled: manifest unknown',
    );
  });
});
