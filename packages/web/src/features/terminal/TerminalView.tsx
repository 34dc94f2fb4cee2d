import { terminalPath } from '@flotilla/shared/terminal/terminal-constants';
import '@xterm/xterm/css/xterm.css';
import type { TerminalTarget } from '@flotilla/shared/terminal/terminal-protocol';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef } from 'react';
import {
  TerminalConnection,
  type TerminalSocket,
  type TerminalState,
} from './terminal-connection.js';
import { useRestartOnNewInstall } from './useRestartOnNewInstall.js';

export type TerminalViewProps = {
  uuid: string;
  target: TerminalTarget;
  // The install a service session's container belongs to: when it changes (a new release, a
  // recreated container) the session reconnects. Null: nothing runs.
  installId: number | null;
  visible: boolean;
  height: number;
  // The caller's current session token or API key, read at each (re)connection. A prop rather
  // than the client context: this lazy chunk then shares no console module but the connection.
  token: () => string | undefined;
  onState: (state: TerminalState, message?: string) => void;
  onActivity: () => void;
};

const socketUrl = (): string => {
  const url = new URL(terminalPath, window.location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
};

// The browser's WebSocket behind the connection's small socket type.
const browserSocket = (url: string): TerminalSocket => {
  const socket = new WebSocket(url);
  const adapter: TerminalSocket = {
    get binaryType() {
      return socket.binaryType;
    },
    set binaryType(value) {
      socket.binaryType = value;
    },
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code) => socket.close(code),
    onopen: null,
    onmessage: null,
    onclose: null,
  };
  socket.onopen = () => adapter.onopen?.();
  socket.onmessage = (event: MessageEvent<unknown>) => adapter.onmessage?.({ data: event.data });
  socket.onclose = (event) => adapter.onclose?.({ code: event.code });
  return adapter;
};

// One session's xterm.js terminal (loaded lazily with this module: xterm stays out of the
// console's first bundle). The session lives as long as the view is mounted.
export const TerminalView = ({
  uuid,
  target,
  installId,
  visible,
  height,
  token,
  onState,
  onActivity,
}: TerminalViewProps) => {
  const host = useRef<HTMLDivElement>(null);
  const fit = useRef<FitAddon | null>(null);
  const shown = useRef<Terminal | null>(null);
  const restart = useRef<(() => void) | null>(null);
  const callbacks = useRef({ token, onState, onActivity });
  // The latest callbacks, for the session's lifetime effect (which must not restart on them).
  useEffect(() => {
    callbacks.current = { token, onState, onActivity };
  }, [token, onState, onActivity]);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const terminal = new Terminal({ cursorBlink: true, fontSize: 13, convertEol: false });
    const fitAddon = new FitAddon();
    fit.current = fitAddon;
    terminal.loadAddon(fitAddon);
    terminal.open(element);
    fitAddon.fit();
    shown.current = terminal;
    const connection = new TerminalConnection({
      url: socketUrl(),
      token: () => callbacks.current.token(),
      uuid,
      target,
      size: () => ({ cols: terminal.cols, rows: terminal.rows }),
      createSocket: browserSocket,
      timers: {
        setTimeout: (callback, ms) => window.setTimeout(callback, ms),
        clearTimeout: (handle) => window.clearTimeout(handle),
      },
      onState: (state, message) => {
        callbacks.current.onState(state, message);
        if (state === 'reconnecting') terminal.writeln('\r\n[reconnecting…]');
        if (state === 'failed') terminal.writeln(`\r\n[${message ?? 'failed'}]`);
      },
      onOutput: (data, drawn) => {
        terminal.write(data, drawn);
        callbacks.current.onActivity();
      },
    });
    const typing = terminal.onData((text) => connection.input(text));
    const resizing = terminal.onResize((size) => connection.resize(size));
    restart.current = () => {
      terminal.writeln('\r\n[the service was replaced: reconnecting…]');
      connection.restart();
    };
    connection.start();
    return () => {
      restart.current = null;
      typing.dispose();
      resizing.dispose();
      connection.stop();
      terminal.dispose();
      fit.current = null;
      shown.current = null;
    };
  }, [uuid, target]);

  useRestartOnNewInstall(installId, () => restart.current?.());

  // The shown session takes the keyboard: a new session is typed into at once, and Enter no
  // longer reaches the start button (which would open one more session). It also comes into
  // view: started from a button at the bottom of the window it would open below it, unseen, and
  // xterm draws nothing while the terminal is off screen.
  useEffect(() => {
    if (!visible) return;
    fit.current?.fit();
    host.current?.scrollIntoView({ block: 'nearest' });
    shown.current?.focus();
  }, [visible, height]);

  return (
    // A plain element: this chunk is xterm's, and MUI here would split the console's shared chunks.
    <div
      ref={host}
      data-testid="terminal-view"
      style={{ display: visible ? 'block' : 'none', height, background: '#000', padding: 4 }}
    />
  );
};
