import { describe, expect, it } from 'vitest';
import type { LogLine } from '../runtime/device-runtime.js';
import { FakeEngine } from '../test-support/fake-engine.js';
import { ContainerLogs } from './container-logs.js';

describe("a container's output in the device's logs", () => {
  const setUp = async () => {
    const engine = new FakeEngine();
    engine.images.add('image@sha256:0');
    const id = await engine.create({
      name: 'main_1_1_c',
      image: 'image@sha256:0',
      environment: {},
      labels: { 'io.balena.service-name': 'main', 'io.balena.service-id': '1' },
    });
    await engine.start(id);
    const lines: LogLine[] = [];
    const logs = new ContainerLogs(engine, (line) => lines.push(line));
    logs.start(1_000);
    // Followed once the engine answers.
    const followed = async (): Promise<void> => {
      logs.follow(await engine.list());
      await Promise.resolve();
    };
    return { engine, id, lines, logs, followed };
  };

  it('passes on every line, two printed within the same millisecond too', async () => {
    const { engine, id, lines, followed } = await setUp();
    await followed();
    expect(engine.print(id, 'device mapped', 5_000)).toBe(true);
    engine.print(id, 'engine socket found', 5_000);
    engine.print(id, 'ready', 5_001);
    expect(lines.map((line) => line.message)).toEqual([
      'device mapped',
      'engine socket found',
      'ready',
    ]);
    expect(lines[0]).toMatchObject({ serviceId: 1, timestamp: 5_000, isStdErr: false });
  });

  it('skips what it already passed on when it follows a restarted container again', async () => {
    const { engine, id, lines, followed } = await setUp();
    await followed();
    engine.print(id, 'first', 5_000);
    engine.print(id, 'second', 6_000);
    engine.endLogs(id);
    await followed();
    // The engine answers again from the whole second of the last line.
    engine.print(id, 'second', 6_000);
    engine.print(id, 'after the restart', 6_500);
    expect(lines.map((line) => line.message)).toEqual(['first', 'second', 'after the restart']);
  });
});
