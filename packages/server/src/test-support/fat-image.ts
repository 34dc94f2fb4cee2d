import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// Small disk images as balenaOS ships them (an MBR, a FAT boot partition first, a Linux partition
// after it), made with Debian's fdisk (sfdisk), dosfstools and mtools, installed when missing as
// the other tests install Debian packages.

const run = promisify(execFile);

const asRoot = async (command: string, args: string[]): Promise<void> => {
  if (process.getuid?.() === 0) await run(command, args);
  else await run('sudo', ['-n', command, ...args]);
};

const tools = [
  ['/usr/sbin/sfdisk', 'fdisk'],
  ['/usr/sbin/mkfs.vfat', 'dosfstools'],
  ['/usr/bin/mcopy', 'mtools'],
] as const;

const ensureTools = async (): Promise<void> => {
  const missing = tools.filter(([binary]) => !existsSync(binary)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  await asRoot('apt-get', ['update', '-qq']);
  await asRoot('env', [
    'DEBIAN_FRONTEND=noninteractive',
    'apt-get',
    'install',
    '-y',
    '-qq',
    ...missing,
  ]);
};

// The boot partition starts 1 MiB in (sector 2048) and is 6 MiB of FAT16 (512-byte clusters: FAT16 needs enough of them).
const bootOffset = '@@1M';
const bootSectors = 12_288;
export const fatImageBytes = 10 * 1024 * 1024;
// Where the Linux partition starts, for checking it is handed out unchanged.
export const rootPartitionOffset = (2048 + bootSectors) * 512;

// A disk image whose boot partition holds `files`, and whose second partition is filled with a
// recognisable pattern.
export const makeFatImage = async (files: Record<string, string>): Promise<Buffer> => {
  await ensureTools();
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-fat-'));
  try {
    const image = join(dir, 'disk.img');
    await writeFile(image, Buffer.alloc(fatImageBytes));
    const layout = `label: dos\nstart=2048, size=${bootSectors}, type=c\nstart=${2048 + bootSectors}, type=83\n`;
    await run('sh', ['-c', `printf '${layout}' | sfdisk -q ${image}`]);
    await run('mkfs.vfat', [
      '-F',
      '16',
      '-s',
      '1',
      '-n',
      'RESIN-BOOT',
      '--offset',
      '2048',
      image,
      String(bootSectors / 2),
    ]);
    for (const [name, content] of Object.entries(files)) {
      const source = join(dir, 'file');
      await writeFile(source, content);
      await run('mcopy', ['-i', `${image}${bootOffset}`, source, `::/${name}`]);
    }
    const bytes = await readFile(image);
    bytes.fill(0x5a, rootPartitionOffset);
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

// A file of the boot partition of `image`, read with mtools (not the library under test).
export const readBootFile = async (image: Buffer, name: string): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-fat-'));
  try {
    const file = join(dir, 'disk.img');
    await writeFile(file, image);
    const { stdout } = await run('mtype', ['-i', `${file}${bootOffset}`, `::/${name}`]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
