import type { TerminalSize } from '@flotilla/shared/terminal/terminal-protocol';
import { errorText } from '../logger.js';
import type { Shell, ShellIo } from '../runtime/shell.js';
import type { ContainerEngine, ExecSession } from './container-engine.js';

// The shell a service's terminal runs: bash where the image has it, sh otherwise (as the
// supervisor's terminal does).
export const serviceShellArgv = [
  '/bin/sh',
  '-c',
  'if [ -x /bin/bash ]; then exec /bin/bash; else exec /bin/sh; fi',
];

// A web terminal's shell inside a running container, through the engine's exec with a terminal.
// The exec starts asynchronously: what the browser types meanwhile waits, in order.
export const openExecShell = (
  engine: ContainerEngine,
  containerId: string,
  size: TerminalSize,
  io: ShellIo,
): Shell => {
  let session: ExecSession | null = null;
  let killed = false;
  let paused = false;
  const queued: Uint8Array[] = [];
  let ended = false;
  const end = (code: number | null): void => {
    if (ended) return;
    ended = true;
    io.exit(code);
  };
  engine.exec(containerId, serviceShellArgv, size).then(
    (started) => {
      session = started;
      if (killed) {
        started.stream.destroy();
        return;
      }
      started.stream.on('data', (chunk: Buffer) => io.output(chunk));
      started.stream.on('end', () => {
        started.exitCode().then(end, () => end(null));
      });
      started.stream.on('error', () => end(null));
      for (const data of queued.splice(0)) started.stream.write(data);
      if (paused) started.stream.pause();
    },
    (error: unknown) => {
      io.output(Buffer.from(`Could not open a shell in the service: ${errorText(error)}\r\n`));
      end(null);
    },
  );
  return {
    input(data) {
      if (session) session.stream.write(data);
      else queued.push(data);
    },
    resize(next) {
      session?.resize(next).catch(() => undefined);
    },
    pause() {
      paused = true;
      session?.stream.pause();
    },
    resume() {
      paused = false;
      session?.stream.resume();
    },
    kill() {
      killed = true;
      session?.stream.destroy();
      end(null);
    },
  };
};
