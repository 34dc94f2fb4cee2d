import { logBufferLines, noLogsAfterMs } from '@flotilla/shared/devices/device-panel-constants';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useClient } from '../../api/client.js';
import { appendLines } from './log-lines.js';
import { type LogLine, type LogStreamStatus, openLogStream } from './log-stream.js';

const browserTimers = {
  setTimer: (callback: () => void, delayMs: number): unknown =>
    window.setTimeout(callback, delayMs),
  clearTimer: (handle: unknown): void => {
    if (typeof handle === 'number') window.clearTimeout(handle);
  },
};

export type DeviceLogs = {
  lines: LogLine[];
  status: LogStreamStatus;
  // Nothing arrived within 3 s of opening: the panel says so instead of staying blank.
  noLogsYet: boolean;
  // Empties the panel (after the server deleted the logs).
  clear: () => void;
};

// The device's logs as the panel shows them: the newest 5,000 lines of the stream, kept open
// (and reopened) while the panel is mounted.
export const useDeviceLogs = (uuid: string): DeviceLogs => {
  const client = useClient();
  const [lines, setLines] = useState<LogLine[]>([]);
  const [status, setStatus] = useState<LogStreamStatus>('loading');
  const [waited, setWaited] = useState(false);

  // A new device remounts the panel (keyed by uuid), so state starts empty for each stream.
  useEffect(() => {
    const stream = openLogStream({
      open: (count, signal) =>
        client.stream({
          path: `/device/v2/${encodeURIComponent(uuid)}/logs`,
          query: { stream: 1, count },
          signal,
        }),
      timers: browserTimers,
      onLines: (batch) => setLines((kept) => appendLines(kept, batch, logBufferLines)),
      onStatus: setStatus,
    });
    const timer = window.setTimeout(() => setWaited(true), noLogsAfterMs);
    return () => {
      window.clearTimeout(timer);
      stream.close();
    };
  }, [client, uuid]);

  const clear = useCallback(() => setLines([]), []);
  return { lines, status, noLogsYet: waited && lines.length === 0, clear };
};

// Deletes the device's logs on the server; `onCleared` empties the panel.
export const useClearLogs = (uuid: string, onCleared: () => void) => {
  const client = useClient();
  return useMutation({
    mutationFn: () =>
      client.request<unknown>({
        method: 'DELETE',
        path: `/device/v2/${encodeURIComponent(uuid)}/logs`,
      }),
    onSuccess: onCleared,
  });
};
