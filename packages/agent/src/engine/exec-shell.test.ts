import { describe, expect, it } from 'vitest';
import { FakeEngine } from '../test-support/fake-engine.js';
import { openExecShell, serviceShellArgv } from './exec-shell.js';

const runningContainer = async (engine: FakeEngine): Promise<string> => {
  engine.images.add('image@sha256:0');
  const id = await engine.create({
    name: 'main_1_1_c',
    image: 'image@sha256:0',
    environment: {},
    labels: { 'io.balena.service-name': 'main' },
  });
  await engine.start(id);
  return id;
};

describe("a web terminal's shell inside a service", () => {
  it('runs bash or sh with a terminal, passes what is typed (before it started too) and ends with its exit code', async () => {
    const engine = new FakeEngine();
    const id = await runningContainer(engine);
    const output: string[] = [];
    const exited = new Promise<number | null>((resolve) => {
      const shell = openExecShell(
        engine,
        id,
        { cols: 80, rows: 24 },
        { output: (data) => output.push(Buffer.from(data).toString()), exit: resolve },
      );
      // Typed before the exec answered: kept, in order.
      shell.input(Buffer.from('echo hi\n'));
      shell.input(Buffer.from('exit\n'));
    });
    expect(await exited).toBe(0);
    expect(output.join('')).toBe('echo hi\nexit\n');
    expect(engine.calls).toContain(`exec main ${serviceShellArgv.join(' ')}`);
  });

  it('says why when the container cannot run it', async () => {
    const engine = new FakeEngine();
    const id = await runningContainer(engine);
    await engine.stop(id);
    const output: string[] = [];
    const code = await new Promise<number | null>((resolve) => {
      openExecShell(
        engine,
        id,
        { cols: 80, rows: 24 },
        { output: (data) => output.push(Buffer.from(data).toString()), exit: resolve },
      );
    });
    expect(code).toBeNull();
    expect(output.join('')).toMatch(/Could not open a shell in the service: .*not running/);
  });
});
