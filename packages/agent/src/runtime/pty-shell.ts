import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import type { TerminalSize } from '@flotilla/shared/terminal/terminal-protocol';
import type { Shell, ShellIo } from './shell.js';

// A real pseudo-terminal without a native addon: util-linux `script` allocates the PTY and runs
// the command in it (-q quiet, -e its exit code, -f flush at once), its stdin and stdout are
// our pipes to the PTY's master. The initial size is set inside the PTY by `stty` before the
// command starts; a later resize sets the size on the PTY's slave device (found through the
// child's stdin link in /proc), which the kernel announces to the program with SIGWINCH.

// POSIX shell single-quoting: the argv reaches the PTY's shell word for word.
export const shellQuote = (argv: readonly string[]): string =>
  argv.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');

const sizeArgs = (size: TerminalSize): string[] => [
  'cols',
  String(size.cols),
  'rows',
  String(size.rows),
];

// The PTY slave of `script`'s child (the shell), e.g. /dev/pts/3.
const slaveOf = async (scriptPid: number): Promise<string | undefined> => {
  const children = await readFile(`/proc/${scriptPid}/task/${scriptPid}/children`, 'utf8');
  const child = children.trim().split(/\s+/)[0];
  if (!child) return undefined;
  const path = await readlink(`/proc/${child}/fd/0`);
  return path.startsWith('/dev/pts/') ? path : undefined;
};

export type PtyShellOptions = {
  // The command to run in the PTY, as argv.
  argv: readonly string[];
  size: TerminalSize;
  io: ShellIo;
  // Milliseconds between SIGTERM and SIGKILL when the session is closed.
  killGraceMs?: number;
};

export const openPtyShell = (options: PtyShellOptions): Shell => {
  const { argv, size, io } = options;
  const command = `stty ${sizeArgs(size).join(' ')} 2>/dev/null; exec ${shellQuote(argv)}`;
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qefc', command, '/dev/null'], {
    // Its own process group, so closing the session reaches script and nothing else of ours.
    detached: true,
    env: { ...process.env, TERM: 'xterm-256color' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let ended = false;
  const finish = (code: number | null): void => {
    if (ended) return;
    ended = true;
    io.exit(code);
  };
  child.stdout.on('data', (data: Buffer) => io.output(data));
  child.stderr.on('data', (data: Buffer) => io.output(data));
  child.stdin.on('error', () => undefined);
  child.on('error', (error) => {
    io.output(new TextEncoder().encode(`Could not start the terminal: ${error.message}\r\n`));
    finish(null);
  });
  child.on('close', (code) => finish(code));

  const signal = (name: NodeJS.Signals): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };

  return {
    input: (data) => {
      if (!ended) child.stdin.write(data);
    },
    resize: (next) => {
      const pid = child.pid;
      if (pid === undefined || ended) return;
      void slaveOf(pid)
        .then((slave) => {
          if (slave) execFile('stty', ['-F', slave, ...sizeArgs(next)], () => undefined);
        })
        .catch(() => undefined);
    },
    pause: () => child.stdout.pause(),
    resume: () => child.stdout.resume(),
    kill: () => {
      ended = true;
      // script ends on SIGTERM and closes the PTY, which hangs up the shell in it.
      signal('SIGTERM');
      setTimeout(() => signal('SIGKILL'), options.killGraceMs ?? 2_000).unref();
    },
  };
};
