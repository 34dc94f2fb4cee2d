import { afterEach, describe, expect, it } from 'vitest';
import {
  type ContainerAppHarness,
  startContainerApp,
  testApp,
  testDevice,
  testService,
} from '../test-support/container-app-harness.js';
import type { ServiceComposition } from '../target-types.js';
import { configHashLabel } from './container-engine.js';

describe("ContainerApp: the release's compose file on the engine", () => {
  let harness: ContainerAppHarness | undefined;

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const start = async (device = testDevice): Promise<ContainerAppHarness> => {
    harness = await startContainerApp({ device });
    return harness;
  };

  it("creates the app's networks, joins each service to its own with its name as alias, and removes them once unused", async () => {
    const { engine, apply, logs } = await start();
    const backend = { name: 'backend', subnets: [{ subnet: '10.77.0.0/24' }] };
    await apply(
      testApp(
        'a1',
        [
          testService('main', 'a1', {
            composition: { networks: [{ name: 'backend', aliases: ['api'] }] },
          }),
          testService('worker', 'a1'),
          testService('metrics', 'a1', { composition: { networkMode: 'host' } }),
        ],
        [backend],
      ),
    );
    expect([...engine.networks.keys()].sort()).toEqual(['7_backend', '7_default']);
    expect(engine.networks.get('7_backend')?.subnets).toEqual([{ subnet: '10.77.0.0/24' }]);
    expect(engine.networks.get('7_backend')?.labels).toMatchObject({
      'io.balena.supervised': 'true',
      'io.balena.app-uuid': 'app-uuid',
    });
    expect(engine.specOf('main')?.networks).toEqual([
      { name: '7_backend', aliases: ['main', 'api'] },
    ]);
    expect(engine.specOf('worker')?.networks).toEqual([{ name: '7_default', aliases: ['worker'] }]);
    expect(engine.specOf('metrics')?.networks).toBeUndefined();
    expect(logs).toContain("Creating network '7_backend'");

    // The network defined anew: the service on it is killed, the network made again.
    engine.calls.length = 0;
    await apply(
      testApp(
        'a1',
        [
          testService('main', 'a1', {
            composition: { networks: [{ name: 'backend', aliases: ['api'] }] },
          }),
          testService('worker', 'a1'),
          testService('metrics', 'a1', { composition: { networkMode: 'host' } }),
        ],
        [{ name: 'backend', subnets: [{ subnet: '10.78.0.0/24' }] }],
      ),
    );
    expect(engine.calls).toEqual([
      'stop main',
      'remove main',
      'remove-network 7_backend',
      'create-network 7_backend',
      'create main',
      'start main',
    ]);
    expect(engine.networks.get('7_backend')?.subnets).toEqual([{ subnet: '10.78.0.0/24' }]);

    // Nobody on the default network any more, backend no longer declared.
    engine.calls.length = 0;
    await apply(
      testApp('b2', [testService('metrics', 'b2', { composition: { networkMode: 'host' } })]),
    );
    expect(engine.calls.filter((call) => call.includes('network')).sort()).toEqual([
      'remove-network 7_backend',
      'remove-network 7_default',
    ]);
    // After the containers on them.
    const removed = (call: string) => engine.calls.indexOf(call);
    expect(removed('remove-network 7_backend')).toBeGreaterThan(removed('remove main'));
    expect(removed('remove-network 7_default')).toBeGreaterThan(removed('remove worker'));
    expect(engine.networks.size).toBe(0);

    await apply(testApp('c3', [testService('main', 'c3')]));
    await apply(null);
    expect(engine.networks.size).toBe(0);
    expect(engine.containers.size).toBe(0);
  });

  it('creates a declared network no service joins yet, with nothing else to change', async () => {
    const { engine, apply } = await start();
    const services = [testService('main', 'a1')];
    await apply(testApp('a1', services));
    engine.calls.length = 0;
    await apply(testApp('a1', services, [{ name: 'spare', subnets: [] }]));
    expect(engine.calls).toEqual(['create-network 7_spare']);
  });

  it('grants the feature labels a plain Linux host can, and says which it ignores', async () => {
    const { engine, apply, logs, lockDir } = await start({
      ...testDevice,
      engineSocket: '/run/docker.sock',
      api: { url: 'https://flotilla.test', key: 'device-key' },
    });
    const features = [
      'balena-socket',
      'dbus',
      'sysfs',
      'procfs',
      'kernel-modules',
      'firmware',
      'journal-logs',
      'balena-api',
      'supervisor-api',
      'gpu',
    ];
    const labels = Object.fromEntries(
      features.map((feature) => [`io.balena.features.${feature}`, '1']),
    );
    await apply(testApp('a1', [testService('main', 'a1', { labels })]));
    const spec = engine.specOf('main');
    expect(spec?.binds).toEqual([
      `${lockDir}/main:/tmp/balena`,
      `${lockDir}/main:/tmp/resin`,
      '/sys:/sys',
      '/proc:/proc',
      '/lib/modules:/lib/modules:ro',
      '/lib/firmware:/lib/firmware:ro',
      '/var/log/journal:/var/log/journal:ro',
      '/run/log/journal:/run/log/journal:ro',
      '/etc/machine-id:/etc/machine-id:ro',
      '/run/dbus:/host/run/dbus',
      '/run/docker.sock:/var/run/balena-engine.sock',
    ]);
    expect(spec?.environment).toMatchObject({
      DOCKER_HOST: 'unix:///var/run/balena-engine.sock',
      DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/host/run/dbus/system_bus_socket',
      BALENA_API_KEY: 'device-key',
      BALENA_API_URL: 'https://flotilla.test',
      RESIN_API_KEY: 'device-key',
    });
    expect(logs.filter((line) => line.includes('is ignored'))).toEqual([
      "Service 'main': io.balena.features.supervisor-api (this agent has no local supervisor API) is ignored",
      "Service 'main': io.balena.features.gpu (GPU access needs a vendor runtime this agent does not configure) is ignored",
    ]);
  });

  it('binds nothing for a label set to false, nor the engine socket it does not know', async () => {
    const { engine, apply, logs } = await start();
    const labels = {
      'io.balena.features.sysfs': '0',
      'io.balena.features.balena-socket': 'true',
    };
    await apply(testApp('a1', [testService('main', 'a1', { labels })]));
    expect(engine.specOf('main')?.binds).toHaveLength(2);
    expect(engine.specOf('main')?.environment.DOCKER_HOST).toBeUndefined();
    expect(logs).toContain(
      "Service 'main': io.balena.features.balena-socket (the agent does not know the engine socket) is ignored",
    );
  });

  it('refuses a release that binds a host path or joins an undeclared network, and keeps the running one', async () => {
    const { engine, apply, logs, containerApp } = await start();
    await apply(testApp('a1', [testService('main', 'a1')]));
    engine.calls.length = 0;
    await apply(
      testApp('b2', [
        testService('main', 'b2', { composition: { volumes: ['/etc:/host-etc:ro'] } }),
        testService('worker', 'b2', { composition: { networks: [{ name: 'nowhere' }] } }),
      ]),
    );
    expect(engine.calls).toEqual(['ping']);
    expect(logs).toContain(
      "Update failed: service 'main' mounts the host path '/etc': host paths are only bound through io.balena.features.* labels; service 'worker' joins the network 'nowhere', which the release does not declare; trying again",
    );
    const report = containerApp.report()['app-uuid'];
    expect(report?.release_uuid).toBe('a1');
    expect(report?.releases.b2?.update_status).toBe('aborted');
    expect(report?.releases.a1?.services.main?.status).toBe('Running');
  });

  it("leaves a container's stop to its own stop_grace_period (sent at creation as its stop timeout)", async () => {
    const { engine, apply } = await start();
    const composition = { stopGracePeriodMs: 30_000 };
    await apply(testApp('a1', [testService('main', 'a1', { composition })]));
    await apply(testApp('b2', [testService('main', 'b2', { composition })]));
    expect(engine.stopTimeouts).toEqual([undefined]);
  });

  // Each field of the compose file a container is made with: a change replaces the container.
  const variants: [string, ServiceComposition][] = [
    ['devices', { devices: ['/dev/null:/dev/x:rw'] }],
    ['healthcheck', { healthcheck: { test: ['CMD', 'true'], intervalMs: 5000 } }],
    ['tmpfs', { tmpfs: ['/run'] }],
    ['sysctls', { sysctls: { 'net.core.somaxconn': '1024' } }],
    ['extra_hosts', { extraHosts: ['printer:10.0.0.9'] }],
    ['stop_signal', { stopSignal: 'SIGINT' }],
    ['stop_grace_period', { stopGracePeriodMs: 30_000 }],
    ['shm_size', { shmSizeBytes: 64 * 1024 * 1024 }],
    ['read_only', { readOnly: true }],
    ['init', { init: true }],
    ['hostname', { hostname: 'box' }],
    ['tty', { tty: true }],
    ['restart', { restart: 'on-failure:3' }],
    ['ulimits', { ulimits: [{ name: 'nofile', soft: 1024, hard: 2048 }] }],
    ['mem_limit', { memLimitBytes: 64 * 1024 * 1024 }],
    ['mem_reservation', { memReservationBytes: 32 * 1024 * 1024 }],
    ['cpus', { cpus: 0.5 }],
    ['cpu_shares', { cpuShares: 512 }],
    ['dns', { dns: ['10.0.0.2'] }],
    ['dns_search', { dnsSearch: ['lan'] }],
    ['dns_opt', { dnsOpt: ['ndots:2'] }],
    ['security_opt', { securityOpt: ['no-new-privileges'] }],
    ['network aliases', { networks: [{ name: 'default', aliases: ['web'] }] }],
  ];

  it('replaces the container when any field it is made of changes, and touches nothing otherwise', async () => {
    const { engine, apply } = await start();
    await apply(testApp('a1', [testService('main', 'a1')]));
    const hashes = new Set([engine.specOf('main')?.labels[configHashLabel]]);
    for (const [field, composition] of variants) {
      engine.calls.length = 0;
      await apply(testApp('a1', [testService('main', 'a1', { composition })]));
      expect(engine.calls, field).toEqual([
        'stop main',
        'remove main',
        'create main',
        'start main',
      ]);
      hashes.add(engine.specOf('main')?.labels[configHashLabel]);
      engine.calls.length = 0;
      await apply(testApp('a1', [testService('main', 'a1', { composition })]));
      expect(engine.calls, `${field} again`).toEqual([]);
    }
    expect(hashes.size).toBe(variants.length + 1);
  });
});
