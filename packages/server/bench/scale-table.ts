import type { ScalePhase } from './scale.js';
import { formatNumber, markdownTable } from './table.js';

// The scale scenario's own table: one row per server count and rate.

const ms = (value: number | null): string => (value === null ? '-' : formatNumber(value, 'ms'));
const perSecond = (count: number, windowMs: number): string =>
  `${((count * 1000) / windowMs).toFixed(1)}/s`;

export const formatScaleTable = (phases: readonly ScalePhase[]): string => {
  const header = [
    'servers',
    'poll interval',
    'devices (online, cloudlink)',
    'polls',
    'poll p99',
    'reports',
    'report p99',
    'errors',
    'Flotilla CPU per 1,000 devices',
    'PostgreSQL CPU per 1,000',
    'RSS per server',
    // Not counted against the server: the devices' own cost, said so it is known.
    'simulator CPU (all devices)',
  ];
  const rows = phases.map((phase) => [
    phase.bus === 'nats' ? `${phase.servers} (NATS)` : String(phase.servers),
    `${phase.pollIntervalMs / 1000} s${phase.rate === '10x' ? ' (10x)' : ''}`,
    `${phase.devices.toLocaleString('en')} (${phase.online.toLocaleString('en')}, ${phase.cloudlink.toLocaleString('en')})`,
    perSecond(phase.polls.count, phase.windowMs),
    ms(phase.polls.p99Ms),
    perSecond(phase.reports.count, phase.windowMs),
    ms(phase.reports.p99Ms),
    String(phase.errors),
    `${phase.serverCpuPer1000.toFixed(2)}% of a core`,
    Number.isFinite(phase.postgresCpuPer1000) ? `${phase.postgresCpuPer1000.toFixed(2)}%` : '-',
    phase.serverRssMb.map((mb) => `${Math.round(mb)} MB`).join(' + '),
    `${phase.simulatorCpuPercent.toFixed(0)}% of a core`,
  ]);
  const notes = phases
    .filter((phase) => phase.firstError !== null)
    .map(
      (phase) => `  ! ${phase.servers} server(s), ${phase.rate}: first error ${phase.firstError}`,
    );
  return [...markdownTable(header, rows), ...notes].join('\n');
};
