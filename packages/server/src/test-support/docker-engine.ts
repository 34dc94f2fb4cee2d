import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait-for.js';

// A real container engine for a test: Debian's dockerd (which `npm test` installs when it is
// missing) with a data root, state and socket of its own, so it never touches a developer's
// engine and several tests may each run one. Containers get no bridge network and dockerd
// touches no firewall rule. As an ordinary user it runs through `sudo -n`, as `npm test` installs
// Debian packages.
export type DockerEngine = {
  // The engine's API socket, and the DOCKER_HOST form of it.
  socket: string;
  dockerHost: string;
  log(): string;
  // GET on the engine's API, answering the status and body.
  get(path: string): Promise<{ status: number; body: string }>;
  // Stops the engine and starts it again on the same data (a device's engine going away).
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
};

const dockerdBinary = process.env.FLOTILLA_TEST_DOCKERD_BINARY ?? '/usr/sbin/dockerd';

export const engineGet = (
  socket: string,
  path: string,
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const call = request({ socketPath: socket, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });

export const startDockerEngine = async (): Promise<DockerEngine> => {
  // A short path: the engine's and containerd's sockets live under it (unix paths are short).
  const root = await mkdtemp(join(tmpdir(), 'fdk-'));
  const socket = join(root, 'docker.sock');
  const args = [
    `--data-root=${join(root, 'data')}`,
    `--exec-root=${join(root, 'x')}`,
    `--pidfile=${join(root, 'dockerd.pid')}`,
    `--host=unix://${socket}`,
    '--bridge=none',
    '--iptables=false',
    '--ip6tables=false',
    '--storage-driver=overlay2',
    // Networks of an address range of the tests' own: a bridge outlives a dockerd that was
    // killed, and such leftovers in docker's default ranges (31 networks) end up leaving a new
    // engine no address for a release's network.
    '--default-address-pool=base=10.213.0.0/16,size=24',
  ];
  const asRoot = process.getuid?.() === 0;
  // Through sudo the socket is root's: its group lets the test talk to it as itself.
  if (!asRoot) args.push(`--group=${String(process.getgid?.() ?? 0)}`);
  let output = '';
  let engine: ChildProcess | null = null;
  const launch = async (): Promise<void> => {
    const started: ChildProcess = asRoot
      ? spawn(dockerdBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('sudo', ['-n', dockerdBinary, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    engine = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<never>((_resolve, reject) => {
      started.once('error', reject);
      started.once('exit', (code) =>
        reject(new Error(`dockerd exited (${String(code)}): ${output.slice(-4000)}`)),
      );
    });
    exited.catch(() => undefined);
    await Promise.race([
      exited,
      waitFor(
        'dockerd to answer on its socket',
        async () => {
          try {
            return (await engineGet(socket, '/_ping')).status === 200;
          } catch {
            return false;
          }
        },
        60_000,
      ),
    ]);
  };
  const halt = async (): Promise<void> => {
    const running = engine;
    if (running === null || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await gone;
  };
  await launch();
  return {
    socket,
    dockerHost: `unix://${socket}`,
    log: () => output,
    get: (path) => engineGet(socket, path),
    pause: halt,
    resume: launch,
    async stop() {
      await halt();
      // The engine's files are root's: through sudo, sudo removes them.
      if (asRoot) await rm(root, { recursive: true, force: true }).catch(() => undefined);
      else spawn('sudo', ['-n', 'rm', '-rf', root], { stdio: 'ignore' });
    },
  };
};
