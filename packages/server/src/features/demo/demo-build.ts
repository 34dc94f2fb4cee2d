import { mkdtemp, open, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create } from 'tar';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { platformPermissionsOf } from '../../infra/auth/resolve-actor.js';
import { buildRelease } from '../builder/build-release.js';
import type { BuildResult } from '../builder/build-outcome.js';
import { readProjectArchive } from '../builder/project-archive.js';

// The demo's release that devices really run: two services built at start on the server's
// container engine from nothing but a statically linked busybox of the host (Debian's
// busybox-static), so the demo needs no image from the internet.

const busyboxCandidates = ['/bin/busybox', '/usr/bin/busybox'];

// Whether an ELF executable asks for a dynamic loader (PT_INTERP): a busybox that does would
// not run in an image with nothing else in it.
const isStaticElf = async (file: string): Promise<boolean> => {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(64);
    await handle.read(header, 0, 64, 0);
    // 64-bit little-endian ELF only: what Debian's busybox-static is on the hosts we build on.
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return false;
    const programHeaders = Number(header.readBigUInt64LE(32));
    const entrySize = header.readUInt16LE(54);
    const count = header.readUInt16LE(56);
    if (count > 64 || entrySize < 4) return false;
    const table = Buffer.alloc(entrySize * count);
    await handle.read(table, 0, table.length, programHeaders);
    for (let index = 0; index < count; index += 1) {
      if (table.readUInt32LE(index * entrySize) === 3) return false;
    }
    return true;
  } finally {
    await handle.close();
  }
};

// The host's static busybox, or undefined (with no busybox-static the demo stays simulated).
export const findStaticBusybox = async (
  candidates: readonly string[] = busyboxCandidates,
): Promise<string | undefined> => {
  for (const candidate of candidates) {
    try {
      if (await isStaticElf(candidate)) return candidate;
    } catch {
      // Not there or not readable: the next one.
    }
  }
  return undefined;
};

const composeFile = `version: '2.1'
services:
  main:
    build: .
    restart: always
    volumes:
      - readings:/data
  web:
    build:
      context: .
      dockerfile: Dockerfile.web
    restart: always
volumes:
  readings:
`;

// A sensor loop writing its readings to the volume and the log, and a web page serving them.
const mainDockerfile = `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
CMD ["/bin/sh", "-c", "n=0; while true; do n=$((n+1)); t=$((200 + RANDOM % 60)); echo \\"reading $n: $((t / 10)).$((t % 10)) C\\" | tee -a /data/readings.log; sleep 10; done"]
`;

const webDockerfile = `FROM scratch
COPY busybox /bin/busybox
RUN ["/bin/busybox", "--install", "-s", "/bin"]
RUN mkdir -p /www && echo "Flotilla demo: served by the web service of the device" > /www/index.html
CMD ["/bin/httpd", "-f", "-p", "80", "-h", "/www"]
`;

const balenaYml = `name: demo
type: sw.application
version: 1.0.0
`;

// The project as the builder takes it: a tarball of a compose file, two Dockerfiles and busybox.
export const demoProjectArchive = async (busybox: string): Promise<Buffer> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-demo-'));
  try {
    await writeFile(path.join(dir, 'docker-compose.yml'), composeFile);
    await writeFile(path.join(dir, 'Dockerfile'), mainDockerfile);
    await writeFile(path.join(dir, 'Dockerfile.web'), webDockerfile);
    await writeFile(path.join(dir, 'balena.yml'), balenaYml);
    await copyFile(busybox, path.join(dir, 'busybox'));
    const archive = path.join(dir, 'project.tar');
    await create({ cwd: dir, file: archive, portable: true }, [
      'docker-compose.yml',
      'Dockerfile',
      'Dockerfile.web',
      'balena.yml',
      'busybox',
    ]);
    return await readFile(archive);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

// Builds the demo release into the fleet as the administrator, under the same rules as a release
// they create in the console.
export const buildDemoRelease = async (
  ctx: AppContext,
  fleetId: number,
  admin: { userId: number; actorId: number },
  busybox: string,
): Promise<BuildResult> => {
  const actor: Actor = {
    kind: 'user',
    userId: admin.userId,
    actorId: admin.actorId,
    platformPermissions: platformPermissionsOf(['balena_admin']),
    via: 'session',
    twoFactorPending: false,
    emailVerificationPending: false,
  };
  const files = await readProjectArchive(await demoProjectArchive(busybox));
  return await buildRelease(ctx, actor, fleetId, files);
};
