import { describe, expect, it } from 'vitest';
import { testApp, testDevice, testService } from '../test-support/container-app-harness.js';
import type { ServiceComposition } from '../target-types.js';
import { containerSpecOf } from './container-spec.js';
import { createOptionsOf, networkOptionsOf, restartPolicyOf } from './docker-create-options.js';
import { wantedNetworks } from './app-networks.js';

const optionsFor = (composition: ServiceComposition) => {
  const app = testApp(
    'a1',
    [testService('main', 'a1', { composition })],
    [
      { name: 'backend', subnets: [] },
      { name: 'metrics', subnets: [] },
    ],
  );
  const release = app.release;
  const service = release?.services[0];
  if (!release || !service) throw new Error('no release');
  return createOptionsOf(containerSpecOf(app, release, service, testDevice));
};

describe("a container's create call on Docker's API", () => {
  it('carries the fields of the compose file', () => {
    const { options } = optionsFor({
      devices: ['/dev/ttyUSB0:/dev/serial:r', '/dev/i2c-1'],
      healthcheck: {
        test: ['CMD-SHELL', 'true'],
        intervalMs: 2000,
        timeoutMs: 1000,
        startPeriodMs: 500,
        retries: 2,
      },
      tmpfs: ['/run', '/tmp:size=64m'],
      sysctls: { 'net.core.somaxconn': '1024' },
      extraHosts: ['printer:10.0.0.9'],
      stopSignal: 'SIGINT',
      stopGracePeriodMs: 1500,
      shmSizeBytes: 1024,
      readOnly: true,
      init: true,
      hostname: 'box',
      tty: true,
      user: '1000',
      ulimits: [{ name: 'nofile', soft: 1024, hard: 2048 }],
      memLimitBytes: 64 * 1024 * 1024,
      memReservationBytes: 32 * 1024 * 1024,
      cpus: 0.5,
      cpuShares: 512,
      dns: ['10.0.0.2'],
      dnsSearch: ['lan'],
      dnsOpt: ['ndots:2'],
      securityOpt: ['no-new-privileges'],
    });
    expect(options).toMatchObject({
      Hostname: 'box',
      Tty: true,
      User: '1000',
      StopSignal: 'SIGINT',
      // Whole seconds, never shorter than asked.
      StopTimeout: 2,
      // The engine counts in nanoseconds.
      Healthcheck: {
        Test: ['CMD-SHELL', 'true'],
        Interval: 2e9,
        Timeout: 1e9,
        StartPeriod: 5e8,
        Retries: 2,
      },
      HostConfig: {
        RestartPolicy: { Name: 'always' },
        Devices: [
          { PathOnHost: '/dev/ttyUSB0', PathInContainer: '/dev/serial', CgroupPermissions: 'r' },
          { PathOnHost: '/dev/i2c-1', PathInContainer: '/dev/i2c-1', CgroupPermissions: 'rwm' },
        ],
        Tmpfs: { '/run': '', '/tmp': 'size=64m' },
        Sysctls: { 'net.core.somaxconn': '1024' },
        ExtraHosts: ['printer:10.0.0.9'],
        ShmSize: 1024,
        ReadonlyRootfs: true,
        Init: true,
        Ulimits: [{ Name: 'nofile', Soft: 1024, Hard: 2048 }],
        Memory: 64 * 1024 * 1024,
        MemoryReservation: 32 * 1024 * 1024,
        // Billionths of a CPU.
        NanoCpus: 5e8,
        CpuShares: 512,
        Dns: ['10.0.0.2'],
        DnsSearch: ['lan'],
        DnsOptions: ['ndots:2'],
        SecurityOpt: ['no-new-privileges'],
        NetworkMode: '7_default',
      },
      NetworkingConfig: { EndpointsConfig: { '7_default': { Aliases: ['main'] } } },
    });
  });

  it('joins the first network at creation and the others after it (engines before API 1.44)', () => {
    const { options, laterNetworks } = optionsFor({
      networks: [{ name: 'backend', aliases: ['api'] }, { name: 'metrics' }],
    });
    expect(options.HostConfig?.NetworkMode).toBe('7_backend');
    expect(options.NetworkingConfig).toEqual({
      EndpointsConfig: { '7_backend': { Aliases: ['main', 'api'] } },
    });
    expect(laterNetworks).toEqual([{ name: '7_metrics', aliases: ['main'] }]);
  });

  it('joins no network under a network mode', () => {
    const { options, laterNetworks } = optionsFor({ networkMode: 'host' });
    expect(options.HostConfig?.NetworkMode).toBe('host');
    expect(options.NetworkingConfig).toBeUndefined();
    expect(laterNetworks).toEqual([]);
  });

  it("maps compose's restart values, and refuses one it does not know", () => {
    expect(restartPolicyOf(undefined)).toEqual({ Name: 'always' });
    expect(restartPolicyOf('no')).toEqual({ Name: 'no' });
    expect(restartPolicyOf('unless-stopped')).toEqual({ Name: 'unless-stopped' });
    expect(restartPolicyOf('on-failure')).toEqual({ Name: 'on-failure' });
    expect(restartPolicyOf('on-failure:5')).toEqual({ Name: 'on-failure', MaximumRetryCount: 5 });
    expect(() => restartPolicyOf('sometimes')).toThrow("unknown restart policy 'sometimes'");
    expect(() => restartPolicyOf('always:3')).toThrow("unknown restart policy 'always:3'");
  });

  it("creates the release's networks as declared, labelled as the agent's", () => {
    const app = testApp(
      'a1',
      [testService('main', 'a1')],
      [
        {
          name: 'backend',
          driver: 'bridge',
          internal: true,
          driverOpts: { 'com.docker.network.bridge.name': 'br-backend' },
          subnets: [{ subnet: '10.77.0.0/24', gateway: '10.77.0.1' }],
        },
      ],
    );
    if (!app.release) throw new Error('no release');
    const [backend, fallback] = wantedNetworks(app, app.release).map(networkOptionsOf);
    expect(backend).toMatchObject({
      Name: '7_backend',
      Driver: 'bridge',
      Internal: true,
      Options: { 'com.docker.network.bridge.name': 'br-backend' },
      IPAM: { Driver: 'default', Config: [{ Subnet: '10.77.0.0/24', Gateway: '10.77.0.1' }] },
      Labels: { 'io.balena.supervised': 'true', 'io.balena.app-uuid': 'app-uuid' },
    });
    expect(fallback).toMatchObject({ Name: '7_default', Driver: 'bridge' });
    expect(fallback?.IPAM).toBeUndefined();
  });
});
