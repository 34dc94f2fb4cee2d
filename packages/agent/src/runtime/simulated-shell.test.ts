import { describe, expect, it } from 'vitest';
import { SimulatedShell } from './simulated-shell.js';

const setup = (target = 'host') => {
  let output = '';
  const exits: number[] = [];
  const shell = new SimulatedShell({
    target,
    state: () => ({
      hostname: 'misty-river',
      deviceType: 'raspberrypi4-64',
      osVersion: 'balenaOS 6.0.13',
      uptimeMs: 2 * 3600_000 + 5 * 60_000,
      storageUsedMb: 10_240,
      storageTotalMb: 30_720,
      services: [{ name: 'web', status: 'Running' }],
    }),
    write: (text) => {
      output += text;
    },
    onExit: (code) => exits.push(code),
  });
  shell.start();
  const run = (typed: string): string => {
    output = '';
    shell.input(typed);
    return output;
  };
  return { shell, run, exits, banner: () => output };
};

describe('SimulatedShell', () => {
  it('says it is simulated and answers from the device state', () => {
    const { run, banner } = setup();
    expect(banner()).toMatch(/simulated shell on a simulated device \(host OS\)/);
    expect(banner().endsWith('root@misty-river:~# ')).toBe(true);
    expect(run('uname -a\r')).toContain('Linux misty-river 6.1.77');
    expect(run('uptime\r')).toContain('up 2:05');
    expect(run('df -h\r')).toContain('10.0G  20.0G  33% /mnt/data');
    expect(run('ps\r')).toContain('web [Running]');
    expect(run('cat /etc/os-release\r')).toContain('VERSION="6.0.13"');
    expect(run('echo hello there\r')).toContain('hello there\r\n');
  });

  it('echoes typing, edits the line, and names unknown commands', () => {
    const { run } = setup('web');
    expect(run('lx')).toBe('lx');
    expect(run('\u007fs\r')).toBe('\b \bs\r\nsh: ls: command not found\r\nroot@web:~# ');
    expect(run('abc\u0003')).toBe('abc^C\r\nroot@web:~# ');
  });

  it('ends on exit or Ctrl-D on an empty line, and reads nothing after', () => {
    const first = setup();
    first.run('exit\r');
    expect(first.exits).toEqual([0]);
    expect(first.run('uname -a\r')).toBe('');
    const second = setup();
    second.run('a\u0004');
    expect(second.exits).toEqual([]);
    second.run('\u007f\u0004');
    expect(second.exits).toEqual([0]);
  });
});
