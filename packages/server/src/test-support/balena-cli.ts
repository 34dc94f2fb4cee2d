import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

// The real balena-cli 25 that `npm test` installs into the user's cache
// (scripts/ensure-balena-cli.mjs, which sets FLOTILLA_TEST_BALENA_CLI_DIR; the default below is
// the same path), run with the Node.js it requires, against one Flotilla server, with a settings
// directory of its own so it never reads or writes ~/.balena.
export type BalenaCli = {
  // Runs `balena <args>` to its end; rejects with its whole output when it fails.
  run(args: readonly string[], extraEnv?: NodeJS.ProcessEnv, timeoutMs?: number): Promise<string>;
  // Starts `balena <args>` and answers at once: the test reads its output as it comes, may send
  // it Ctrl-C (SIGINT), and waits for its exit code.
  start(args: readonly string[], extraEnv?: NodeJS.ProcessEnv): RunningCli;
};

export type RunningCli = {
  output(): string;
  interrupt(): void;
  exited: Promise<number | null>;
};

const version = '25.2.6';
const nodeVersion = '24.22.3';

const cliDirectory = (): string =>
  process.env.FLOTILLA_TEST_BALENA_CLI_DIR ??
  join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'flotilla',
    `balena-cli-${version}-node-${nodeVersion}`,
  );

export const balenaCli = async (apiUrl: string): Promise<BalenaCli> => {
  const dir = cliDirectory();
  const node = join(dir, 'node_modules', `node-linux-${process.arch}`, 'bin', 'node');
  const entry = join(dir, 'node_modules', 'balena-cli', 'bin', 'run.js');
  if (!existsSync(node) || !existsSync(entry)) {
    throw new Error(
      `balena-cli ${version} is not installed in ${dir}: run \`node -e "import('./scripts/ensure-balena-cli.mjs').then((m) => m.ensureBalenaCli())"\` (npm test does)`,
    );
  }
  const settings = await mkdtemp(join(tmpdir(), 'flotilla-balena-cli-'));
  // npm's and the test runner's settings stay out; the CLI reads its own from BALENARC_*.
  const baseEnv = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(npm_|BALENARC_|VITEST|NODE_OPTIONS$)/i.test(key),
    ),
  );
  const envOf = (extraEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
    ...baseEnv,
    BALENARC_API_URL: apiUrl,
    BALENARC_DATA_DIRECTORY: settings,
    // No analytics, error reports, deprecation or update checks: nothing leaves the machine (the
    // CLI's offline mode would also refuse `login`).
    BALENARC_NO_ANALYTICS: '1',
    BALENARC_NO_SENTRY: '1',
    BALENARC_UNSUPPORTED: '1',
    NO_UPDATE_NOTIFIER: '1',
    NO_COLOR: '1',
    ...extraEnv,
  });
  return {
    start: (args, extraEnv = {}) => {
      const child = spawn(node, [entry, ...args], {
        env: envOf(extraEnv),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
      });
      return { output: () => output, interrupt: () => child.kill('SIGINT'), exited };
    },
    run: (args, extraEnv = {}, timeoutMs = 120_000) =>
      new Promise((resolve, reject) => {
        execFile(
          node,
          [entry, ...args],
          {
            env: envOf(extraEnv),
            timeout: timeoutMs,
            maxBuffer: 16 * 1024 * 1024,
          },
          (error, stdout, stderr) => {
            const output = `${stdout}${stderr}`;
            if (error) {
              // Tokens stay out of the test's output.
              const shown = args.map((arg) => (arg.length > 40 ? '<redacted>' : arg)).join(' ');
              reject(new Error(`balena ${shown} failed (${String(error.code)}):\n${output}`));
            } else {
              resolve(output);
            }
          },
        );
      }),
  };
};
