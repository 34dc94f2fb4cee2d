import { Duplex } from 'node:stream';
import { SimulatedShell, type SimulatedShellState } from '../runtime/simulated-shell.js';
import type { ExecSession } from './container-engine.js';

// A shell inside a simulated service, as the engine's exec hands it out: the simulated shell
// behind a terminal stream, so the web terminal opens it exactly as it opens a real container's.
export const simulatedExecSession = (
  service: string,
  state: () => SimulatedShellState,
): ExecSession => {
  const decoder = new TextDecoder();
  let exitCode: number | null = null;
  let ended = false;
  const stream = new Duplex({
    read: () => undefined,
    write: (chunk: Buffer, _encoding, callback) => {
      if (!ended) shell.input(decoder.decode(chunk, { stream: true }));
      callback();
    },
  });
  const shell = new SimulatedShell({
    state,
    target: service,
    write: (text) => {
      if (!ended) stream.push(text);
    },
    onExit: (code) => {
      if (ended) return;
      ended = true;
      exitCode = code;
      stream.push(null);
    },
  });
  // Buffered until the terminal reads: the banner is the session's first output.
  shell.start();
  return {
    stream,
    resize: async () => undefined,
    exitCode: async () => exitCode,
  };
};
