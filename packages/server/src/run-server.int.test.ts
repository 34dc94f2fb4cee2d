import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from './features/api-keys/store-api-key.js';
import { type Database, openDatabase } from './infra/db/database.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
} from './test-support/fixtures.js';
import { connectFakeDevice, type FakeDevice } from './test-support/fake-device-client.js';

type LogRecord = { level: number; msg: string; banner?: { url: string } };

// The server as `flotilla-server` runs it (main.ts, its own embedded PostgreSQL), stopped with
// Ctrl-C while a device link and log streams are open: everything closes in order, nothing is
// logged at warn or above, nothing else is printed, and PostgreSQL is gone afterwards.
describe('stopping the server process', () => {
  let dataDir: string;
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let exited: Promise<number | null>;
  let url: string;
  let db: Database;

  const records = (): LogRecord[] =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogRecord);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-stop-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      FLOTILLA_DATA_DIR: dataDir,
      FLOTILLA_DEMO: 'off',
      FLOTILLA_ADMIN_PASSWORD: 'stopping-in-order',
      FLOTILLA_LOG_FORMAT: 'json',
      FLOTILLA_LOG_LEVEL: 'debug',
    };
    // Its own embedded database, whatever this run uses.
    delete env.DATABASE_URL;
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', path.join(import.meta.dirname, 'main.ts')],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 60 s: ${stdout}`)), 60_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const banner = stdout.includes('"banner"')
          ? records().find((record) => record.banner)
          : undefined;
        if (!banner?.banner) return;
        clearTimeout(timer);
        resolve(banner.banner.url);
      });
      void exited.then((code) => reject(new Error(`exited (${code}): ${stdout}${stderr}`)));
    });
    // Fixtures straight into the child's database.
    const password = (await readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
    const port = (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split(
      '\n',
    )[3];
    db = openDatabase(`postgres://flotilla:${password}@127.0.0.1:${port}/flotilla`, { max: 1 });
  }, 90_000);

  afterAll(async () => {
    await db?.close().catch(() => undefined);
    if (child?.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('closes links and streams, then the database, without a word of error', async () => {
    const user = await createUser(db, 'operator');
    const organization = await createOrganization(db, 'Stoppers');
    await addOrganizationMember(db, user.userId, organization, 'administrator');
    const fleet = await createFleet(db, organization, 'fleet');
    const device = await createDevice(db, fleet.id, 'device');
    const userKey = await createApiKey(db, user.actorId, { name: 'operator' });
    const deviceKey = await createApiKey(db, device.actorId, { name: 'device' });
    await db.close();

    const link: FakeDevice = await connectFakeDevice(url, deviceKey, { uuid: device.uuid });
    // A user's live log stream (its headers come with the first line: the marker below) ...
    const live = fetch(`${url}/device/v2/${device.uuid}/logs?stream=1&count=0`, {
      headers: { authorization: `Bearer ${userKey}` },
    });
    // ... and the device's log stream, both open.
    let sendLine: (line: string) => void = () => undefined;
    const ingest = fetch(`${url}/device/v2/${device.uuid}/log-stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${deviceKey}`, 'content-type': 'application/x-ndjson' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          sendLine = (line) => controller.enqueue(new TextEncoder().encode(`${line}\n`));
        },
      }),
      duplex: 'half',
    }).then(
      (response) => `answered ${response.status}`,
      () => 'cut off',
    );
    // A line is live only if it arrives after the subscription (count=0 shows no history), and
    // the two requests race: marker lines go until the live stream shows one.
    const marker = `before the stop ${randomBytes(4).toString('hex')}`;
    const sending = setInterval(
      () => sendLine(JSON.stringify({ message: marker, timestamp: Date.now() })),
      100,
    );
    const opened = await live.finally(() => clearInterval(sending));
    expect(opened.status).toBe(200);
    const liveReader = opened.body?.getReader();
    if (!liveReader) throw new Error('no stream body');
    let received = '';
    while (!received.includes(marker)) {
      const chunk = await liveReader.read();
      if (chunk.done) throw new Error(`the live stream ended early: ${received}`);
      received += new TextDecoder().decode(chunk.value);
    }

    const postmaster = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    // Ctrl-C under npm: the terminal's SIGINT and npm's forwarded copy, back to back.
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect(await exited).toBe(0);

    expect((await link.closed).code).toBe(1001);
    let ended = false;
    while (!ended) ended = (await liveReader.read()).done;
    expect(['answered 400', 'answered 201', 'cut off']).toContain(await ingest);
    expect(() => process.kill(postmaster, 0)).toThrow();
    // A clean shutdown removes it; a crash would leave it.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    expect(stderr).toBe('');
    const all = records();
    // Nothing at warn or above; a forced exit (the second SIGINT taken as a second Ctrl-C)
    // would be a warning, and would not stop PostgreSQL in order.
    expect(all.filter((record) => record.level >= 40)).toEqual([]);
    // Background work failing because the database went first would be logged at debug.
    expect(all.filter((record) => /failed|unavailable|unreachable|lost/i.test(record.msg))).toEqual(
      [],
    );
    const steps: ((msg: string) => boolean)[] = [
      (msg) => msg.startsWith('SIGINT: stopping'),
      (msg) => msg.startsWith('Stopped the HTTP server'),
      (msg) => msg === 'Closed the database pool',
      (msg) => msg.includes('database system is shut down'),
      (msg) => msg === 'Stopped the embedded PostgreSQL',
      (msg) => msg === 'Stopped',
    ];
    const order = steps.map((step) => all.findIndex((record) => step(record.msg)));
    expect(
      order.every((index) => index >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  }, 90_000);
});
