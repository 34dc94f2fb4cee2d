import type { Shell, ShellIo } from './shell.js';
import { SimulatedShell, type SimulatedShellState } from './simulated-shell.js';

// The simulator's web terminal on the host OS: a SimulatedShell behind the Shell interface (a
// service's shell is the simulated engine's exec, simulated-exec.ts). Its output is a few lines
// per command, so flow control has nothing to pause.
export const openSimulatedHostShell = (state: () => SimulatedShellState, io: ShellIo): Shell => {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let ended = false;
  const shell = new SimulatedShell({
    state,
    target: 'host',
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
