import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import type { Shell, ShellIo } from './shell.js';
import { SimulatedShell, type SimulatedShellState } from './simulated-shell.js';

// The simulator's web terminal: a SimulatedShell behind the Shell interface. A service's shell
// opens only while the service runs, as on a real device. Its output is a few lines per
// command, so flow control has nothing to pause.
export const openSimulatedShell = (
  target: TerminalTarget,
  state: () => SimulatedShellState,
  io: ShellIo,
): Shell | { error: string } => {
  if (target.kind === 'service') {
    const service = state().services.find((candidate) => candidate.name === target.service);
    if (!service) return { error: `Service ${target.service} is not on this device` };
    if (service.status !== 'Running') return { error: `Service ${target.service} is not running` };
  }
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let ended = false;
  const shell = new SimulatedShell({
    state,
    target: target.kind === 'host' ? 'host' : target.service,
    write: (text) => {
      if (!ended) io.output(encoder.encode(text));
    },
    onExit: (code) => {
      if (ended) return;
      ended = true;
      io.exit(code);
    },
  });
  // After the caller has the Shell: the banner is its first output.
  queueMicrotask(() => shell.start());
  return {
    input: (data) => shell.input(decoder.decode(data, { stream: true })),
    resize: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    kill: () => {
      ended = true;
    },
  };
};
