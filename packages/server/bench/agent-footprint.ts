import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { extract } from 'tar';
import { z } from 'zod';
import { demoProjectArchive, findStaticBusybox } from '../src/features/demo/demo-build.js';
import { type DockerEngine, startDockerEngine } from '../src/test-support/docker-engine.js';
import { freePort } from '../src/test-support/free-port.js';
import { repoRoot, type StartServer } from './processes.js';
import { cpuMillis, privateBytes, rssBytes } from './proc-stats.js';

// The device agent's footprint while it runs a release, as a device runs it: the agent package
// the server serves (one bundled cli.js), in real mode on a private dockerd, running the demo's
// two-service release that the server built and holds in its own registry. Beside it, a bare
// Node process idling over the same window: the floor any Node agent starts from.

export type AgentFootprint =
  | {
      kind: 'measured';
      windowMs: number;
      agent: Figures;
      bareNode: Figures;
    }
  | { kind: 'skipped'; reason: string };

// The largest RSS and private memory seen, and the CPU over the window.
type Figures = { rssBytes: number; privateBytes: number; cpuPercent: number };

type Options = {
  startServer: StartServer;
  adminToken: string;
  // The organization the bench's administrator administers, for the fleet.
  organizationId: number;
  // Settling time before the window, and the window measured.
  settleMs: number;
  windowMs: number;
  log: (line: string) => void;
};

const agentPackage = `${repoRoot}packages/agent/dist/flotilla-agent.tgz`;
const deadlineMs = 240_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const idAnswer = z.object({ id: z.number() });
const rows = z.object({ d: z.array(z.record(z.string(), z.unknown())) });
const buildAnswer = z.object({
  releaseId: z.number(),
  status: z.string(),
  log: z.array(z.string()),
});
const runningRelease = z.object({
  d: z.array(z.object({ is_running__release: z.object({ __id: z.number() }).nullable() })),
});

const api = async (
  url: string,
  token: string,
  init: { method?: string; body?: unknown; contentType?: string } = {},
): Promise<unknown> => {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined
        ? {}
        : { 'content-type': init.contentType ?? 'application/json' }),
    },
    ...(init.body === undefined
      ? {}
      : { body: Buffer.isBuffer(init.body) ? init.body : JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
};

// CPU (percent of one core) and the largest RSS of a process over a window, sampled each second.
const measure = async (pids: readonly number[], windowMs: number): Promise<Figures[]> => {
  const startCpu = await Promise.all(pids.map((pid) => cpuMillis(pid)));
  const started = performance.now();
  const peaks = pids.map(() => 0);
  const privatePeaks = pids.map(() => 0);
  while (performance.now() - started < windowMs) {
    await pause(1000);
    const now = await Promise.all(pids.map((pid) => rssBytes(pid)));
    now.forEach((value, index) => (peaks[index] = Math.max(peaks[index] ?? 0, value)));
    const own = await Promise.all(pids.map((pid) => privateBytes(pid)));
    own.forEach(
      (value, index) => (privatePeaks[index] = Math.max(privatePeaks[index] ?? 0, value)),
    );
  }
  const elapsed = performance.now() - started;
  const endCpu = await Promise.all(pids.map((pid) => cpuMillis(pid)));
  return pids.map((_pid, index) => ({
    rssBytes: peaks[index] ?? 0,
    privateBytes: privatePeaks[index] ?? 0,
    cpuPercent: (((endCpu[index] ?? 0) - (startCpu[index] ?? 0)) / elapsed) * 100,
  }));
};

const stop = async (child: ChildProcess | undefined): Promise<void> => {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
};

export const measureAgentFootprint = async (options: Options): Promise<AgentFootprint> => {
  const { log } = options;
  const busybox = await findStaticBusybox();
  if (busybox === undefined)
    return { kind: 'skipped', reason: 'no static busybox (busybox-static)' };
  let engine: DockerEngine;
  try {
    engine = await startDockerEngine();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: 'skipped', reason: `no container engine could start here: ${why}` };
  }
  const work = await mkdtemp(path.join(tmpdir(), 'flotilla-agent-bench-'));
  let agent: ChildProcess | undefined;
  let bare: ChildProcess | undefined;
  const server = await options
    .startServer('flotilla', {
      PORT: String(await freePort()),
      FLOTILLA_DATA_DIR: path.join(work, 'server'),
      FLOTILLA_EMBEDDED_REGISTRY: 'on',
      FLOTILLA_EMBEDDED_REGISTRY_PORT: String(await freePort()),
      FLOTILLA_BUILDER_DOCKER_HOST: `unix://${engine.socket}`,
    })
    .catch(async (error: unknown) => {
      await engine.stop();
      throw error;
    });
  try {
    const token = options.adminToken;
    const types = rows.parse(
      await api(`${server.url}/v7/device_type?$select=id&$filter=slug eq 'generic-amd64'`, token),
    );
    const fleet = idAnswer.parse(
      await api(`${server.url}/v7/application`, token, {
        method: 'POST',
        body: {
          app_name: `agent-bench-${Date.now()}`,
          organization: options.organizationId,
          is_for__device_type: types.d[0]?.id,
        },
      }),
    );
    const mark = performance.now();
    const built = buildAnswer.parse(
      await api(`${server.url}/builder/v1/applications/${fleet.id}/releases`, token, {
        method: 'POST',
        body: await demoProjectArchive(busybox),
        contentType: 'application/x-tar',
      }),
    );
    if (built.status !== 'success') {
      throw new Error(`the release did not build: ${built.log.slice(-5).join(' / ')}`);
    }
    log(`  agent: release built in ${((performance.now() - mark) / 1000).toFixed(1)} s`);
    const config = await api(`${server.url}/download-config`, token, {
      method: 'POST',
      body: { appId: fleet.id, provisioningKeyName: 'agent bench' },
    });
    const configPath = path.join(work, 'config.json');
    await writeFile(configPath, JSON.stringify(config));
    await extract({ file: agentPackage, cwd: work });
    // The package's own command, as npx runs it: its launcher line picks the Node flags.
    agent = spawn(path.join(work, 'package', 'cli.js'), ['--config', configPath], {
      env: {
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        DOCKER_HOST: `unix://${engine.socket}`,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let agentErrors = '';
    agent.stderr?.on('data', (chunk: Buffer) => {
      agentErrors = (agentErrors + chunk.toString()).slice(-4000);
    });
    const deadline = performance.now() + deadlineMs;
    for (;;) {
      const devices = runningRelease.parse(
        await api(
          `${server.url}/v7/device?$select=is_running__release&$filter=belongs_to__application eq ${fleet.id}`,
          token,
        ),
      );
      if (devices.d[0]?.is_running__release?.__id === built.releaseId) break;
      if (agent.exitCode !== null) throw new Error(`the agent exited: ${agentErrors}`);
      if (performance.now() > deadline) {
        throw new Error(`the agent did not run the release within ${deadlineMs / 1000} s`);
      }
      await pause(1000);
    }
    log(`  agent: runs the release; settling ${options.settleMs / 1000} s`);
    bare = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await pause(options.settleMs);
    const agentPid = agent.pid;
    const barePid = bare.pid;
    if (agentPid === undefined || barePid === undefined) throw new Error('no pid to measure');
    const [agentFigures, bareFigures] = await measure([agentPid, barePid], options.windowMs);
    if (agentFigures === undefined || bareFigures === undefined)
      throw new Error('nothing measured');
    return {
      kind: 'measured',
      windowMs: options.windowMs,
      agent: agentFigures,
      bareNode: bareFigures,
    };
  } finally {
    await stop(agent);
    await stop(bare);
    await server.stop();
    await engine.stop();
    await rm(work, { recursive: true, force: true });
  }
};

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// The lines the bench prints, goals beside (balena-supervisor commonly uses around 100 MB).
export const formatAgentFootprint = (footprint: AgentFootprint): string[] => {
  if (footprint.kind === 'skipped') return [`Agent footprint: skipped (${footprint.reason})`];
  const { agent, bareNode } = footprint;
  const rssGoal = agent.rssBytes <= 60 * 1024 * 1024 ? 'met' : 'MISSED';
  const cpuGoal = agent.cpuPercent <= 1 ? 'met' : 'MISSED';
  return [
    `Agent footprint, running a two-service release on dockerd (${footprint.windowMs / 1000} s window):`,
    `  RSS  ${megabytes(agent.rssBytes)}  (bare Node ${megabytes(bareNode.rssBytes)}, ${(agent.rssBytes / bareNode.rssBytes).toFixed(2)}x)  goal <= 60 MB: ${rssGoal}`,
    `  private memory  ${megabytes(agent.privateBytes)}  (bare Node ${megabytes(bareNode.privateBytes)}): RSS without the Node binary's pages shared with every Node process`,
    `  CPU  ${agent.cpuPercent.toFixed(2)}% of a core  (bare Node ${bareNode.cpuPercent.toFixed(2)}%)  goal <= 1%: ${cpuGoal}`,
  ];
};
