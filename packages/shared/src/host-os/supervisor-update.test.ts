import { describe, expect, it } from 'vitest';
import { supervisorUpdateChoices, type SupervisorReleaseOption } from './supervisor-update.js';

const release = (
  rawVersion: string,
  extra: Partial<SupervisorReleaseOption> = {},
): SupervisorReleaseOption => ({
  rawVersion,
  cpuArchitecture: 'aarch64',
  status: 'success',
  isFinal: true,
  isInvalidated: false,
  ...extra,
});

const releases = [
  release('v14.0.0'),
  release('v16.2.0'),
  release('v16.4.0'),
  release('v16.5.0', { cpuArchitecture: 'armv7hf' }),
  release('v16.6.0', { isInvalidated: true }),
  release('v16.7.0', { isFinal: false }),
  release('v16.8.0', { status: 'failed' }),
];

describe('supervisorUpdateChoices', () => {
  it('offers newer valid releases of the device architecture, newest first', () => {
    const choices = supervisorUpdateChoices(
      { supervisorVersion: '16.2.0', osVersion: 'balenaOS 6.0.13', cpuArchitecture: 'aarch64' },
      releases,
    );
    expect(choices).toEqual({ ok: true, releases: [release('v16.4.0')] });
  });

  it('offers every valid release when the current supervisor is unknown', () => {
    const choices = supervisorUpdateChoices(
      { supervisorVersion: null, osVersion: '6.0.13', cpuArchitecture: 'aarch64' },
      releases,
    );
    expect(choices).toEqual({
      ok: true,
      releases: [release('v16.4.0'), release('v16.2.0'), release('v14.0.0')],
    });
  });

  it('says why nothing is offered', () => {
    expect(
      supervisorUpdateChoices(
        { supervisorVersion: '16.4.0', osVersion: '6.0.13', cpuArchitecture: 'aarch64' },
        releases,
      ),
    ).toEqual({ ok: false, message: 'No versions available' });
    expect(
      supervisorUpdateChoices(
        { supervisorVersion: '14.0.0', osVersion: '2024.4.0', cpuArchitecture: 'aarch64' },
        releases,
      ),
    ).toEqual({ ok: false, message: 'Cannot update the supervisor of ESR devices' });
    expect(
      supervisorUpdateChoices(
        { supervisorVersion: '14.0.0', osVersion: '6.0.13', cpuArchitecture: null },
        releases,
      ),
    ).toEqual({ ok: false, message: 'Could not find compatible cpu architecture' });
  });
});
