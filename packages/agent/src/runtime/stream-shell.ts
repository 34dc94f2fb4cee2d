import { connect } from 'node:net';
import { Duplex } from 'node:stream';
import type { Shell, ShellIo } from './shell.js';

// A byte stream driven like a terminal's shell (terminal-sessions.ts): the public device URL's
// tunnels are cloudlink stream sessions whose far end is the device's web server, so they get
// the terminal's framing and flow control (pause and resume reading) for free.
export const streamShell = (stream: Duplex, io: ShellIo): Shell => {
  stream.on('data', (data: Buffer) => io.output(data));
  stream.on('error', () => undefined);
  // The tunnel protocol has no half-close: the server's answer ending ends the session.
  stream.once('end', () => stream.destroy());
  stream.once('close', () => io.exit(null));
  return {
    input: (data) => {
      if (stream.writable) stream.write(data);
    },
    resize: () => undefined,
    pause: () => stream.pause(),
    resume: () => stream.resume(),
    kill: () => stream.destroy(),
  };
};

// The real device's tunnel: a TCP connection to its web server on this machine. A refused
// connection ends the stream at once, which the server answers with its 502 page.
export const openTcpTunnel = (port: number, io: ShellIo): Shell =>
  streamShell(connect({ port, host: '127.0.0.1' }), io);

// Two connected in-memory streams (Node 20 has no stream.duplexPair): what one side writes, the
// other reads. Used to hand an in-process HTTP server a "connection" (the simulator's pages).
export const duplexPair = (): [Duplex, Duplex] => {
  const sides: Duplex[] = [];
  const other = (self: Duplex): Duplex | undefined => sides.find((side) => side !== self);
  const side = (): Duplex => {
    const self: Duplex = new Duplex({
      read: () => undefined,
      write(chunk: Buffer, _encoding, callback) {
        other(self)?.push(chunk);
        callback();
      },
      final(callback) {
        other(self)?.push(null);
        callback();
      },
      destroy(error, callback) {
        const peer = other(self);
        if (peer && !peer.destroyed) peer.destroy();
        callback(error);
      },
    });
    return self;
  };
  sides.push(side(), side());
  const [a, b] = sides;
  if (!a || !b) throw new Error('unreachable');
  return [a, b];
};
