import { readdir, readFile } from 'node:fs/promises';

// Process figures from Linux's /proc: CPU time (utime + stime of /proc/<pid>/stat) and resident
// memory (VmRSS of /proc/<pid>/status).

// USER_HZ: clock ticks per second of /proc/<pid>/stat (100 on every Linux architecture we run).
const ticksPerSecond = 100;

// Milliseconds of CPU (user + system) from the text of /proc/<pid>/stat. The command name (field
// 2) may hold spaces and parentheses, so fields are counted after its last ')'.
// With `reaped`, also the time of its children that have exited (cutime, cstime: fields 16, 17).
export const cpuMillisFromStat = (text: string, reaped = false): number => {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
  const offsets = reaped ? [11, 12, 13, 14] : [11, 12];
  const ticks = offsets.map((offset) => Number(fields[offset]));
  if (ticks.some((value) => !Number.isFinite(value))) {
    throw new Error('unreadable /proc/<pid>/stat');
  }
  return (ticks.reduce((sum, value) => sum + value, 0) * 1000) / ticksPerSecond;
};

// The parent pid (field 4) from the text of /proc/<pid>/stat.
export const parentFromStat = (text: string): number =>
  Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);

// Bytes of VmRSS from the text of /proc/<pid>/status ("VmRSS:    123456 kB").
export const rssBytesFromStatus = (text: string): number => {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(text);
  if (!match?.[1]) throw new Error('no VmRSS in /proc/<pid>/status');
  return Number(match[1]) * 1024;
};

export const cpuMillis = async (pid: number): Promise<number> =>
  cpuMillisFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'));

export const rssBytes = async (pid: number): Promise<number> =>
  rssBytesFromStatus(await readFile(`/proc/${pid}/status`, 'utf8'));

// The CPU of a process and its direct children, living or exited (PostgreSQL: the postmaster and
// its backends; a backend that exits moves its time into the postmaster's cutime).
export const treeCpuMillis = async (pid: number): Promise<number> => {
  let total = cpuMillisFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'), true);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (parentFromStat(stat) === pid) total += cpuMillisFromStat(stat);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
};

// Bytes only this process holds (Private_Clean + Private_Dirty of /proc/<pid>/smaps_rollup): RSS
// without the pages it shares with other processes, such as the Node binary's code.
export const privateBytesFromRollup = (text: string): number => {
  let kilobytes = 0;
  for (const match of text.matchAll(/^Private_(?:Clean|Dirty):\s+(\d+)\s+kB$/gm)) {
    kilobytes += Number(match[1]);
  }
  return kilobytes * 1024;
};

export const privateBytes = async (pid: number): Promise<number> =>
  privateBytesFromRollup(await readFile(`/proc/${pid}/smaps_rollup`, 'utf8'));
