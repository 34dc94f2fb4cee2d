import { execFile, spawn } from 'node:child_process';
import { badRequest } from '../../infra/errors/api-error.js';

// The system's git as the git remote runs it: never through a shell, with an environment of our
// own (no operator or user configuration applies; see gitEnvironment).

export type GitCommand = {
  // The git executable (the system's `git` on PATH by default).
  binary: string;
  // Whether it runs here; asked once, the answer kept.
  available(): Promise<boolean>;
  // Runs git to its end and answers its standard output; throws with its standard error.
  run(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string>;
  // `git archive` of a commit as a tarball, refused with a 400 once it outgrows maxBytes.
  archive(commit: string, env: NodeJS.ProcessEnv, maxBytes: number): Promise<Buffer>;
};

// What every git process of the remote gets: PATH (git's own helpers and the hook's `dirname`),
// and no global or system configuration.
export const gitEnvironment = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  ...extra,
});

// Configuration given through the environment (git 2.31+), so it holds for git and every git it
// starts (http-backend, receive-pack, the hooks).
export const gitConfigEnvironment = (settings: [string, string][]): Record<string, string> => {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
};

export const createGitCommand = (binary = 'git'): GitCommand => {
  let probe: Promise<boolean> | undefined;
  const run = (args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile(binary, args, { env, cwd, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0] ?? ''} failed: ${stderr || error.message}`));
        else resolve(stdout);
      });
    });
  return {
    binary,
    available() {
      probe ??= run(['--version'], gitEnvironment({})).then(
        () => true,
        () => false,
      );
      return probe;
    },
    run,
    archive: (commit, env, maxBytes) =>
      new Promise((resolve, reject) => {
        const child = spawn(binary, ['archive', '--format=tar', commit], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const chunks: Buffer[] = [];
        let size = 0;
        let stderr = '';
        let tooLarge = false;
        child.stdout.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            tooLarge = true;
            child.kill('SIGKILL');
            return;
          }
          chunks.push(chunk);
        });
        child.stderr.on('data', (chunk: Buffer) => {
          stderr = `${stderr}${chunk.toString('utf8')}`.slice(-2000);
        });
        child.on('error', reject);
        child.on('close', (code) => {
          if (tooLarge) {
            reject(badRequest(`The project is larger than ${maxBytes / 1024 / 1024} MiB`));
          } else if (code === 0) resolve(Buffer.concat(chunks));
          else reject(new Error(`git archive failed: ${stderr}`));
        });
      }),
  };
};
