import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

// An empty directory and a fresh npm cache, as on a device that never ran npm, with the npm
// registry replaced by a local server that counts what reaches it (and answers nothing useful):
// an install that needs the registry fails, and `registryRequests` proves none was made.
export type NpmSandbox = {
  dir: string;
  env: NodeJS.ProcessEnv;
  registryRequests: () => readonly string[];
  // Another empty directory beside `dir`, e.g. for `npm install --prefix`.
  emptyDir(name: string): Promise<string>;
  // Runs a command to its end; rejects with its output when it fails.
  run(command: string, args: readonly string[], timeoutMs?: number): Promise<string>;
  // Starts a long-running command in its own process group, recording its output.
  start(command: string, args: readonly string[]): RunningCommand;
  close(): Promise<void>;
};

export type RunningCommand = {
  output(): string;
  // Resolves with the output once `pattern` appears in it; rejects if the command exits first.
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  // SIGTERM to its process group (npx and the agent it started), then waits for the exit.
  stop(): Promise<void>;
};

const maxOutputChars = 16_000;

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
    });
  });

// npm's own settings from the test runner's environment (npm test sets many) stay out.
const withoutNpmSettings = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE_OPTIONS'),
  );

const startCommand = (
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): RunningCommand => {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const waiters = new Set<() => void>();
  const record = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-maxOutputChars);
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      for (const waiter of [...waiters]) waiter();
      resolve();
    });
  });
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null;
  return {
    output: () => output,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${pattern} in:\n${output}`));
        }, timeoutMs);
        const check = (): void => {
          const found = pattern.exec(output);
          if (!found && !exited()) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (found) resolve(found);
          else
            reject(
              new Error(`${command} exited (${child.exitCode}) before ${pattern}:\n${output}`),
            );
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      if (!exited() && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exit;
    },
  };
};

export const createNpmSandbox = async (label: string): Promise<NpmSandbox> => {
  const root = await mkdtemp(path.join(tmpdir(), `flotilla-${label}-`));
  const dir = path.join(root, 'device');
  const requests: string[] = [];
  const registry = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(503).end();
  });
  const registryUrl = await listen(registry);
  await mkdir(dir);
  const env: NodeJS.ProcessEnv = {
    ...withoutNpmSettings(process.env),
    npm_config_registry: registryUrl,
    npm_config_cache: path.join(root, 'npm-cache'),
    npm_config_userconfig: path.join(root, 'npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_fetch_retries: '0',
  };
  const running: RunningCommand[] = [];
  return {
    dir,
    env,
    registryRequests: () => requests,
    emptyDir: async (name) => {
      const other = path.join(root, 'dirs', name);
      await mkdir(other, { recursive: true });
      return other;
    },
    run: (command, args, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        execFile(
          command,
          [...args],
          { cwd: dir, env, timeout: timeoutMs, encoding: 'utf8' },
          (error, stdout, stderr) => {
            if (error)
              reject(
                new Error(
                  `${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`,
                ),
              );
            else resolve(stdout);
          },
        );
      }),
    start: (command, args) => {
      const started = startCommand(command, args, dir, env);
      running.push(started);
      return started;
    },
    close: async () => {
      await Promise.all(running.map((command) => command.stop()));
      await new Promise<void>((resolve) => registry.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
};
