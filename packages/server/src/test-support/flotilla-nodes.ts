import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

// Whole Flotilla server processes (src/main.ts through tsx, as `npm run dev` starts it) for the
// multi-node test, started with the settings of deploy/flotilla-node.env. Each runs in its own
// process group: kill() is a kill -9 of the group (a crashed machine), and every group still
// running is killed when the test process exits, whatever happened to the test.

export const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const mainFile = path.join(repoRoot, 'packages/server/src/main.ts');

export type FlotillaNode = {
  name: string;
  port: number;
  url: string;
  // kill -9 of its process group; resolves once it has exited.
  kill(): Promise<void>;
  // The last lines it wrote, for error messages.
  output(): string;
};

const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess): void => {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
};
process.once('exit', () => {
  for (const child of running) killGroup(child);
});

// KEY=VALUE lines of an environment file (comments and blank lines skipped).
export const readEnvFile = async (file: string): Promise<Record<string, string>> =>
  Object.fromEntries(
    (await readFile(file, 'utf8'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );

export const startFlotillaNode = async (
  name: string,
  port: number,
  env: Record<string, string>,
): Promise<FlotillaNode> => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', mainFile], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  let lines: string[] = [];
  let banner = false;
  const keep = (chunk: Buffer): void => {
    const text = chunk.toString();
    if (text.includes('"banner"')) banner = true;
    lines = [...lines, ...text.split('\n').filter(Boolean)].slice(-30);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const output = (): string => lines.join('\n');
  const kill = async (): Promise<void> => {
    killGroup(child);
    await exited;
  };
  // Started once its banner is out (it listens from then on).
  const deadline = Date.now() + 120_000;
  while (!banner) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await kill();
      throw new Error(`${name} did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { name, port, url: `http://127.0.0.1:${port}`, kill, output };
};
