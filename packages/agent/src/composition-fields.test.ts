import { describe, expect, it } from 'vitest';
import { byteSize, durationMs } from './compose-values.js';
import { parseTargetState } from './target-types.js';

const uuid = 'd'.repeat(32);

// A target state as the server sends it: the release's compose file as it was deployed.
const targetWith = (services: Record<string, unknown>, networks: unknown = {}): unknown => ({
  [uuid]: {
    name: 'misty-river',
    config: {},
    apps: {
      appuuid: {
        id: 7,
        name: 'demo',
        class: 'fleet',
        releases: {
          c0ffee: {
            id: 70,
            services: Object.fromEntries(
              Object.entries(services).map(([name, composition], index) => [
                name,
                { id: index, image_id: index, image: `r/${name}@sha256:0`, composition },
              ]),
            ),
            volumes: {},
            networks,
          },
        },
      },
    },
  },
});

const parsed = (services: Record<string, unknown>, networks?: unknown) =>
  parseTargetState(targetWith(services, networks), uuid)?.app?.release;

describe('the compose fields of a target state', () => {
  it('reads what a container is made of, in the forms compose allows', () => {
    const release = parsed({
      main: {
        build: './main',
        devices: ['/dev/ttyUSB0:/dev/serial:rw', '/dev/i2c-1'],
        healthcheck: {
          test: 'curl -f http://localhost/ || exit 1',
          interval: '1m30s',
          timeout: '10s',
          retries: 3,
          start_period: '500ms',
        },
        tmpfs: '/run',
        sysctls: ['net.core.somaxconn=1024'],
        extra_hosts: ['printer:10.0.0.9', 'scanner=10.0.0.10'],
        stop_signal: 'SIGINT',
        stop_grace_period: '1m',
        shm_size: '64m',
        read_only: true,
        init: true,
        hostname: 'box',
        tty: true,
        user: 1000,
        restart: 'on-failure:3',
        networks: { backend: { aliases: ['api'] }, default: null },
      },
      worker: {
        healthcheck: { test: ['CMD', 'true'] },
        sysctls: { 'net.ipv4.ip_forward': 1 },
        tmpfs: ['/tmp:size=64m', '/cache'],
        extra_hosts: { printer: '10.0.0.9' },
        networks: ['backend'],
        shm_size: 1048576,
        stop_grace_period: 20,
      },
      quiet: { healthcheck: { disable: true } },
    });
    const [main, worker, quiet] = release?.services ?? [];
    expect(main?.composition).toEqual({
      devices: ['/dev/ttyUSB0:/dev/serial:rw', '/dev/i2c-1'],
      healthcheck: {
        test: ['CMD-SHELL', 'curl -f http://localhost/ || exit 1'],
        intervalMs: 90_000,
        timeoutMs: 10_000,
        retries: 3,
        startPeriodMs: 500,
      },
      tmpfs: ['/run'],
      sysctls: { 'net.core.somaxconn': '1024' },
      extraHosts: ['printer:10.0.0.9', 'scanner:10.0.0.10'],
      stopSignal: 'SIGINT',
      stopGracePeriodMs: 60_000,
      shmSizeBytes: 64 * 1024 * 1024,
      readOnly: true,
      init: true,
      hostname: 'box',
      tty: true,
      user: '1000',
      restart: 'on-failure:3',
      networks: [{ name: 'backend', aliases: ['api'] }, { name: 'default' }],
    });
    expect(worker?.composition).toEqual({
      healthcheck: { test: ['CMD', 'true'] },
      sysctls: { 'net.ipv4.ip_forward': '1' },
      tmpfs: ['/tmp:size=64m', '/cache'],
      extraHosts: ['printer:10.0.0.9'],
      networks: [{ name: 'backend' }],
      shmSizeBytes: 1048576,
      stopGracePeriodMs: 20_000,
    });
    expect(quiet?.composition).toEqual({ healthcheck: { test: ['NONE'] } });
  });

  it("reads the release's networks, and none when it declares none", () => {
    const release = parsed(
      { main: {} },
      {
        backend: {
          driver: 'bridge',
          driver_opts: { 'com.docker.network.bridge.name': 'br-backend' },
          internal: true,
          labels: ['team=iot'],
          ipam: { driver: 'default', config: [{ subnet: '10.77.0.0/24', gateway: '10.77.0.1' }] },
        },
        plain: null,
      },
    );
    expect(release?.networks).toEqual([
      {
        name: 'backend',
        driver: 'bridge',
        driverOpts: { 'com.docker.network.bridge.name': 'br-backend' },
        internal: true,
        labels: { team: 'iot' },
        subnets: [{ subnet: '10.77.0.0/24', gateway: '10.77.0.1' }],
      },
      { name: 'plain', subnets: [] },
    ]);
    expect(parsed({ main: {} })?.networks).toEqual([]);
  });

  it('reads resource limits, the resolver and security options', () => {
    const [main, worker] =
      parsed({
        main: {
          ulimits: { nproc: 65535, nofile: { soft: 20000, hard: 40000 }, core: { soft: 0 } },
          mem_limit: '512m',
          mem_reservation: 134217728,
          cpus: '0.5',
          cpu_shares: 512,
          dns: '10.0.0.2',
          dns_search: 'lan',
          dns_opt: ['ndots:2', 'timeout:1'],
          security_opt: ['no-new-privileges', 'label=disable'],
        },
        worker: { dns: ['1.1.1.1', '9.9.9.9'], dns_search: ['a.lan', 'b.lan'], cpus: 2 },
      })?.services ?? [];
    expect(main?.composition).toEqual({
      // A limit without both bounds is left out.
      ulimits: [
        { name: 'nproc', soft: 65535, hard: 65535 },
        { name: 'nofile', soft: 20000, hard: 40000 },
      ],
      memLimitBytes: 512 * 1024 * 1024,
      memReservationBytes: 134217728,
      cpus: 0.5,
      cpuShares: 512,
      dns: ['10.0.0.2'],
      dnsSearch: ['lan'],
      dnsOpt: ['ndots:2', 'timeout:1'],
      securityOpt: ['no-new-privileges', 'label=disable'],
    });
    expect(worker?.composition).toEqual({
      dns: ['1.1.1.1', '9.9.9.9'],
      dnsSearch: ['a.lan', 'b.lan'],
      cpus: 2,
    });
  });

  it('leaves out what it cannot read rather than refusing the target', () => {
    const [main] =
      parsed({
        main: {
          ulimits: ['nofile=1024'],
          mem_limit: 'half',
          cpus: 0,
          cpu_shares: 1.5,
          security_opt: 'no-new-privileges',
          healthcheck: { test: 42, interval: 'soon' },
          shm_size: 'lots',
          stop_grace_period: '10 seconds',
          devices: '/dev/x',
          sysctls: 'x',
        },
      })?.services ?? [];
    expect(main?.composition).toEqual({});
  });

  it('reads durations and sizes as compose writes them', () => {
    expect(durationMs('1h2m3s')).toBe(3_723_000);
    expect(durationMs('1.5s')).toBe(1500);
    expect(durationMs('250us')).toBe(0);
    expect(durationMs('10')).toBeUndefined();
    expect(durationMs('')).toBeUndefined();
    expect(byteSize('512k')).toBe(512 * 1024);
    expect(byteSize('1gb')).toBe(1024 ** 3);
    expect(byteSize('100')).toBe(100);
    expect(byteSize(-1)).toBeUndefined();
  });
});
