import { describe, expect, it, onTestFailed } from 'vitest';
import { openPtyShell, shellQuote } from './pty-shell.js';
import type { Shell } from './shell.js';

// A real shell in a real PTY (util-linux script). Waits on the shell's output, never on time.
const startShell = (argv: readonly string[] = ['/bin/sh']) => {
  let text = '';
  const waiters = new Set<() => void>();
  let exited: (code: number | null) => void = () => undefined;
  const exit = new Promise<number | null>((resolve) => (exited = resolve));
  const shell: Shell = openPtyShell({
    argv,
    size: { cols: 91, rows: 27 },
    io: {
      output: (data) => {
        text += new TextDecoder().decode(data);
        for (const waiter of [...waiters]) waiter();
      },
      exit: (code) => exited(code),
    },
  });
  const waitFor = (pattern: RegExp): Promise<RegExpMatchArray> =>
    new Promise((resolve) => {
      const check = (): void => {
        const match = pattern.exec(text);
        if (!match) return;
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      check();
    });
  // A failure shows what the PTY printed (a hang otherwise says nothing about where it stopped).
  onTestFailed(() => {
    process.stderr.write(`PTYTEXT ${JSON.stringify(text)}\n`);
  });
  const type = (line: string): void => shell.input(new TextEncoder().encode(`${line}\n`));
  return { shell, type, waitFor, exit };
};

describe('pseudo-terminal shell', () => {
  it('runs commands in a terminal of the asked size, resizes, and exits with its code', async () => {
    const { shell, type, waitFor, exit } = startShell();
    type('echo "tty:$(tty)"');
    await waitFor(/tty:\/dev\/pts\/\d+/);
    type('echo "size:$(stty size)"');
    await waitFor(/size:27 91/);
    type('uname -s');
    await waitFor(/Linux\r\n/);
    shell.resize({ cols: 120, rows: 33 });
    // The resize lands asynchronously: ask (each time after the previous answer) until it shows.
    // The prompt may come before or after an answer, so only the answer itself is matched.
    for (let attempt = 1; ; attempt++) {
      type(`echo "size${attempt}:$(stty size)"`);
      const [, answer] = await waitFor(new RegExp(`size${attempt}:(\\d+ \\d+)`));
      if (answer === '33 120') break;
    }
    type('exit 7');
    expect(await exit).toBe(7);
  });

  it('ends the shell when the session is closed', async () => {
    const { shell, type, waitFor } = startShell();
    type('echo "pid:$$"');
    const [, pid] = await waitFor(/pid:(\d+)/);
    shell.kill();
    // The shell got the hang-up: signal 0 finds no such process.
    await expect(
      new Promise((resolve, reject) => {
        const check = (): void => {
          try {
            process.kill(Number(pid), 0);
            // Polls the process table: the hang-up reaches the shell asynchronously.
            setTimeout(check, 10);
          } catch (error) {
            reject(error);
          }
        };
        check();
        void resolve;
      }),
    ).rejects.toThrow(/ESRCH/);
  });

  it('quotes argv for the PTY shell', () => {
    expect(shellQuote(['docker', 'exec', '-it', "it's", 'sh'])).toBe(
      "'docker' 'exec' '-it' 'it'\\''s' 'sh'",
    );
  });
});
