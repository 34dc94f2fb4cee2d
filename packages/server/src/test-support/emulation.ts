import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// What a test of builds for another CPU architecture needs of this machine: QEMU user emulation
// registered with binfmt_misc (Debian's qemu-user-static, installed when missing, as `npm test`
// installs Debian packages), and Debian's static busybox of that architecture for its images.

const run = promisify(execFile);

const asRoot = async (command: string, args: string[]): Promise<void> => {
  if (process.getuid?.() === 0) await run(command, args);
  else await run('sudo', ['-n', command, ...args]);
};

const binfmt = '/proc/sys/fs/binfmt_misc';

// Registered, enabled, and with the F flag: the kernel opens the interpreter when it is registered,
// so that programs in containers (which do not see it) run through it too.
const registered = async (handler: string): Promise<boolean> => {
  try {
    const text = await readFile(join(binfmt, handler), 'utf8');
    return /^enabled$/m.test(text) && /^flags: .*F/m.test(text);
  } catch {
    return false;
  }
};

// QEMU's names: aarch64, arm.
export const ensureEmulation = async (qemuArch: string): Promise<void> => {
  const handler = `qemu-${qemuArch}`;
  if (await registered(handler)) return;
  const conf = `/usr/lib/binfmt.d/${handler}.conf`;
  if (!existsSync(conf)) {
    await asRoot('apt-get', ['update', '-qq']);
    await asRoot('env', [
      'DEBIAN_FRONTEND=noninteractive',
      'apt-get',
      'install',
      '-y',
      '-qq',
      'qemu-user-static',
    ]);
  }
  if (!existsSync(join(binfmt, 'register'))) {
    await asRoot('mount', ['-t', 'binfmt_misc', 'binfmt_misc', binfmt]);
  }
  if (!(await registered(handler))) {
    // Installing registered it where binfmt_misc was mounted; otherwise register it as
    // systemd-binfmt would, from the package's own line.
    await asRoot('sh', ['-c', `cat ${conf} > ${join(binfmt, 'register')}`]);
  }
  if (!(await registered(handler))) {
    throw new Error(
      `QEMU user emulation for ${qemuArch} could not be registered with binfmt_misc (with its F flag): this machine cannot run the test of builds for another CPU architecture`,
    );
  }
};

// Debian's busybox-static of a Debian architecture (arm64, armhf), downloaded once into the
// machine's temporary folder with package lists of its own, so that the machine's apt
// configuration is left as it is.
export const foreignBusybox = async (debianArch: string): Promise<Buffer> => {
  const dir = join(tmpdir(), `flotilla-test-busybox-${debianArch}`);
  const binary = join(dir, 'bin', 'busybox');
  if (existsSync(binary)) return await readFile(binary);
  const apt = join(dir, 'apt');
  await mkdir(join(apt, 'lists', 'partial'), { recursive: true });
  await mkdir(join(apt, 'cache', 'archives', 'partial'), { recursive: true });
  const options = [
    '-qq',
    '-o',
    `APT::Architecture=${debianArch}`,
    '-o',
    `APT::Architectures::=${debianArch}`,
    '-o',
    `Dir::State::Lists=${join(apt, 'lists')}`,
    '-o',
    `Dir::Cache=${join(apt, 'cache')}`,
  ];
  await run('apt-get', [...options, 'update']);
  await run('apt-get', [...options, 'download', `busybox-static:${debianArch}`], { cwd: apt });
  const deb = (await readdir(apt)).find((name) => name.endsWith('.deb'));
  if (deb === undefined) throw new Error(`apt-get downloaded no busybox-static:${debianArch}`);
  await run('dpkg-deb', ['-x', join(apt, deb), dir]);
  await rm(apt, { recursive: true, force: true });
  return await readFile(binary);
};
