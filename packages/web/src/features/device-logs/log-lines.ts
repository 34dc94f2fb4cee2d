import type { LogLine } from './log-stream.js';

// The lines kept: the newest `max`, the oldest dropped first (a new array, for React).
export const appendLines = (
  kept: readonly LogLine[],
  lines: readonly LogLine[],
  max: number,
): LogLine[] => {
  const all = kept.length + lines.length;
  if (all <= max) return [...kept, ...lines];
  if (lines.length >= max) return lines.slice(lines.length - max);
  return [...kept.slice(all - max), ...lines];
};

// What a line is labelled with: "System" for the device's own messages (the supervisor's,
// the agent's), else its service's name (or its id when the service is not known).
export const systemLabel = 'System';

export const sourceOf = (line: LogLine, services: ReadonlyMap<number, string>): string => {
  if (line.isSystem) return systemLabel;
  if (line.serviceId === undefined) return 'Unknown service';
  return services.get(line.serviceId) ?? `Service ${line.serviceId}`;
};

// The service filter: the text matches a line's source (case-insensitive). A text naming a
// source exactly ("main", "system") shows that source only, so "show logs" of service "web"
// does not also show "web-proxy".
export const lineFilter = (
  text: string,
  services: ReadonlyMap<number, string>,
): ((line: LogLine) => boolean) => {
  const wanted = text.trim().toLowerCase();
  if (wanted === '') return () => true;
  const sources = [systemLabel, ...services.values()].map((name) => name.toLowerCase());
  const exact = sources.includes(wanted);
  return (line) => {
    const source = sourceOf(line, services).toLowerCase();
    return exact ? source === wanted : source.includes(wanted);
  };
};

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

// 2026-11-24 09:30:15.123, in UTC or the browser's time zone.
export const formatTimestamp = (ms: number, utc: boolean): string => {
  const at = new Date(ms);
  const [y, mo, d, h, mi, s, milli] = utc
    ? [
        at.getUTCFullYear(),
        at.getUTCMonth() + 1,
        at.getUTCDate(),
        at.getUTCHours(),
        at.getUTCMinutes(),
        at.getUTCSeconds(),
        at.getUTCMilliseconds(),
      ]
    : [
        at.getFullYear(),
        at.getMonth() + 1,
        at.getDate(),
        at.getHours(),
        at.getMinutes(),
        at.getSeconds(),
        at.getMilliseconds(),
      ];
  return `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}.${pad(milli, 3)}${utc ? 'Z' : ''}`;
};

// The downloaded file: one line per log line, as the panel shows it.
export const logsText = (
  lines: readonly LogLine[],
  services: ReadonlyMap<number, string>,
  options: { utc: boolean; hideTimestamps: boolean },
): string =>
  lines
    .map((line) => {
      const stamp = options.hideTimestamps
        ? ''
        : `${formatTimestamp(line.timestamp, options.utc)} `;
      return `${stamp}[${sourceOf(line, services)}] ${line.message}\n`;
    })
    .join('');
