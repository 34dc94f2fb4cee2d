import { describe, expect, it } from 'vitest';
import { Scheduler } from '../scheduler.js';
import { ManualClock } from '../test-support/manual-clock.js';
import {
  appUuidLabel,
  configHashLabel,
  type ContainerSpec,
  serviceIdLabel,
  serviceNameLabel,
} from './container-engine.js';
import { SimulatedEngine } from './simulated-engine.js';

const auth = { username: 'd_uuid', password: '', serveraddress: 'registry' };
const image = `registry/web@sha256:${'1'.repeat(64)}`;

const spec = (
  name: string,
  extra: Partial<ContainerSpec> = {},
  environment: Record<string, string> = {},
): ContainerSpec => ({
  name: `${name}_1_1_c1`,
  image,
  environment: { BALENA_SERVICE_NAME: name, ...environment },
  labels: {
    [serviceNameLabel]: name,
    [serviceIdLabel]: '3',
    [appUuidLabel]: 'app',
    [configHashLabel]: `hash-${name}`,
  },
  ...extra,
});

// Downloads of 1 s (ticks of 200 ms), steps of 100 ms, a line every 500 ms.
const setup = () => {
  const clock = new ManualClock(0);
  const engine = new SimulatedEngine({
    scheduler: new Scheduler(clock),
    random: () => 0.5,
    timing: { downloadMs: [1000, 1000], stepMs: 100, logIntervalMs: [500, 500] },
    shellState: () => ({
      hostname: 'misty-river',
      deviceType: 'raspberrypi4-64',
      osVersion: 'balenaOS 6.0.13',
      uptimeMs: 0,
      storageUsedMb: 1,
      storageTotalMb: 2,
      services: [{ name: 'web', status: 'Running' }],
    }),
  });
  return { clock, engine };
};

// A running container of the image, pulled first.
const running = async (
  clock: ManualClock,
  engine: SimulatedEngine,
  container = spec('web'),
): Promise<string> => {
  if (!(await engine.hasImage(container.image))) {
    const pulled = engine.pull(container.image, auth, () => undefined);
    await clock.runFor(1000);
    await pulled;
  }
  const created = engine.create(container);
  await clock.runFor(100);
  const id = await created;
  const started = engine.start(id);
  await clock.runFor(100);
  await started;
  return id;
};

describe('SimulatedEngine', () => {
  it('answers nothing while powered off', async () => {
    const { engine } = setup();
    await expect(engine.ping()).rejects.toThrow(/not running/);
    await expect(engine.list()).rejects.toThrow(/not running/);
    await engine.powerOn();
    await expect(engine.ping()).resolves.toBeUndefined();
  });

  it('pulls an image in the profile’s download time, reporting progress on the way', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const progress: number[] = [];
    let done = false;
    const pulled = engine.pull(image, auth, (percent) => progress.push(percent));
    void pulled.then(() => (done = true));
    await clock.runFor(999);
    expect(done).toBe(false);
    expect(await engine.hasImage(image)).toBe(false);
    expect(progress).toEqual([20, 40, 60, 80]);
    await clock.runFor(1);
    expect(done).toBe(true);
    expect(progress.at(-1)).toBe(100);
    expect(await engine.hasImage(image)).toBe(true);
    // An image it has is not fetched again.
    const again: number[] = [];
    await engine.pull(image, auth, (percent) => again.push(percent));
    expect(again).toEqual([]);
  });

  it('refuses what a real engine refuses', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    await expect(engine.create(spec('web'))).rejects.toThrow(/No such image/);
    await expect(engine.start('nope')).rejects.toThrow(/No such container/);
    const id = await running(clock, engine);
    await expect(engine.create(spec('other', { binds: ['7_data:/data'] }))).rejects.toThrow(
      /No such volume: 7_data/,
    );
    await expect(engine.create(spec('web'))).rejects.toThrow(/already in use/);
    await expect(engine.remove(id)).rejects.toThrow(/running container/);
    await expect(
      engine.create({ ...spec('api', { networks: [{ name: '7_default', aliases: [] }] }) }),
    ).rejects.toThrow(/network 7_default not found/);
    await engine.ensureVolume('7_data');
    const withVolume = engine.create({ ...spec('db', { binds: ['7_data:/data'] }), name: 'db' });
    await clock.runFor(100);
    await withVolume;
    await expect(engine.removeVolume('7_data')).rejects.toThrow(/in use/);
  });

  it('takes a step to create, start and stop a container, and reports its state', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const id = await running(clock, engine);
    expect(await engine.list()).toEqual([
      {
        id,
        service: 'web',
        serviceId: 3,
        image,
        configHash: 'hash-web',
        state: 'running',
        exitCode: null,
      },
    ]);
    const stopped = engine.stop(id);
    await clock.runFor(99);
    expect((await engine.list())[0]?.state).toBe('running');
    await clock.runFor(1);
    await stopped;
    expect((await engine.list())[0]).toMatchObject({ state: 'exited', exitCode: 0 });
    const restarted = engine.restart(id);
    await clock.runFor(50);
    expect((await engine.list())[0]?.state).toBe('restarting');
    await clock.runFor(50);
    await restarted;
    expect((await engine.list())[0]?.state).toBe('running');
    const stopping = engine.stop(id);
    await clock.runFor(100);
    await stopping;
    await engine.remove(id);
    expect(await engine.list()).toEqual([]);
  });

  it('keeps an image or a network a container uses, as a real engine does', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const network = { name: '7_default', labels: { [configHashLabel]: 'net-hash' } };
    await engine.createNetwork(network);
    await expect(engine.createNetwork(network)).rejects.toThrow(/already exists/);
    expect(await engine.listNetworks()).toEqual([{ name: '7_default', configHash: 'net-hash' }]);
    const id = await running(
      clock,
      engine,
      spec('web', { networks: [{ name: '7_default', aliases: ['web'] }] }),
    );
    await engine.removeImage(image);
    await engine.removeNetwork('7_default');
    expect(await engine.hasImage(image)).toBe(true);
    expect(await engine.listNetworks()).toHaveLength(1);
    const stopped = engine.stop(id);
    await clock.runFor(100);
    await stopped;
    await engine.remove(id);
    await engine.removeImage(image);
    await engine.removeNetwork('7_default');
    expect(await engine.hasImage(image)).toBe(false);
    expect(await engine.listNetworks()).toEqual([]);
    // Gone already: nothing to do.
    await engine.removeImage(image);
  });

  it('reports a health check starting, then healthy once its start period and an interval passed', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const checked = spec('web', {
      healthcheck: { test: ['CMD', 'true'], intervalMs: 5000, startPeriodMs: 1000 },
    });
    const id = await running(clock, engine, checked);
    const plain = await running(clock, engine, { ...spec('job'), name: 'job' });
    const healthOf = async (which: string) =>
      (await engine.list()).find((container) => container.id === which)?.health;
    expect(await healthOf(id)).toBe('starting');
    expect(await healthOf(plain)).toBeUndefined();
    // Started at 1200 ms (the download, a step to create, one to start); the second container
    // took two more steps: it is 1400 ms now, and the check passes at 7200 ms.
    await clock.runFor(5799);
    expect(await healthOf(id)).toBe('starting');
    await clock.runFor(1);
    expect(await healthOf(id)).toBe('healthy');
    const stopped = engine.stop(id);
    await clock.runFor(100);
    await stopped;
    expect(await healthOf(id)).toBeUndefined();
  });

  it('prints lines from running services only, and replays them to a late follower', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const id = await running(clock, engine);
    await clock.runFor(1000);
    const lines: string[] = [];
    let ended = false;
    const unfollow = await engine.followLogs(
      id,
      0,
      (line) => lines.push(line),
      () => (ended = true),
    );
    // The lines printed since it started, then the live ones.
    const replayed = lines.length;
    expect(replayed).toBeGreaterThan(0);
    await clock.runFor(1000);
    expect(lines.length).toBeGreaterThan(replayed);
    const stopped = engine.stop(id);
    await clock.runFor(100);
    await stopped;
    expect(ended).toBe(true);
    const atStop = lines.length;
    await clock.runFor(2000);
    expect(lines).toHaveLength(atStop);
    unfollow();
  });

  it('has a service that starts with other variables say so', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const first = await running(clock, engine, spec('web', {}, { GREETING: 'hello' }));
    const lines: string[] = [];
    const collect = async (id: string): Promise<void> => {
      await engine.followLogs(
        id,
        0,
        (line) => lines.push(line),
        () => undefined,
      );
    };
    await collect(first);
    expect(lines.filter((line) => line.startsWith('Started with'))).toEqual([]);
    const stopped = engine.stop(first);
    await clock.runFor(100);
    await stopped;
    await engine.remove(first);
    const second = await running(
      clock,
      engine,
      spec('web', {}, { GREETING: 'bonjour', BALENA_DEVICE_UUID: 'x' }),
    );
    await collect(second);
    expect(lines.filter((line) => line.startsWith('Started with'))).toEqual([
      'Started with GREETING=bonjour',
    ]);
  });

  it('opens the simulated shell in a running service', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const id = await running(clock, engine);
    const session = await engine.exec(id, ['/bin/sh'], { cols: 80, rows: 24 });
    let output = '';
    session.stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ended = new Promise((resolve) => session.stream.on('end', resolve));
    session.stream.write('hostname\r');
    session.stream.write('exit\r');
    await ended;
    expect(output).toContain('(service web)');
    expect(output).toContain('misty-river\r\n');
    expect(await session.exitCode()).toBe(0);
    const stopped = engine.stop(id);
    await clock.runFor(100);
    await stopped;
    await expect(engine.exec(id, ['/bin/sh'], { cols: 80, rows: 24 })).rejects.toThrow(
      /not running/,
    );
  });

  it('fails what is in flight at power off, and starts containers again by their restart policy', async () => {
    const { clock, engine } = setup();
    await engine.powerOn();
    const always = await running(clock, engine);
    const never = await running(clock, engine, { ...spec('job', { restart: 'no' }), name: 'job' });
    const manual = await running(clock, engine, {
      ...spec('api', { restart: 'unless-stopped' }),
      name: 'api',
    });
    const stopped = engine.stop(manual);
    await clock.runFor(100);
    await stopped;
    const other = `registry/other@sha256:${'2'.repeat(64)}`;
    const pulling = engine.pull(other, auth, () => undefined);
    await clock.runFor(400);
    const failed = expect(pulling).rejects.toThrow(/powered off/);
    engine.powerOff();
    await failed;
    const booted = engine.powerOn();
    await clock.runFor(100);
    await booted;
    const states = Object.fromEntries(
      (await engine.list()).map((container) => [container.id, container.state]),
    );
    expect(states).toEqual({ [always]: 'running', [never]: 'exited', [manual]: 'exited' });
    // The download cut short starts again from nothing.
    expect(await engine.hasImage(other)).toBe(false);
  });
});
