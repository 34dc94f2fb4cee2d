// `npm run test:stress`: runs `npm test` several times in a row while busy loops occupy every core,
// stopping at the first failure, so a test that only passes on an idle machine shows up here
// rather than on someone else's laptop or CI runner.
//
//   npm run test:stress -- [--runs 3] [--load <cores>] [--fresh] [--command "npm test"]
//
// --runs      how many runs in a row (default 3)
// --load      how many busy loops (default: one per core, os.availableParallelism())
// --fresh     run in a fresh `git clone` of the committed HEAD in a temporary directory, so a
//             missing install step, a stale build or an ignored file cannot help
// --command   what to run instead of `npm test`, e.g. "npx vitest run path/to/file.test.ts"
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    load: { type: 'string', default: String(availableParallelism()) },
    fresh: { type: 'boolean', default: false },
    command: { type: 'string', default: 'npm test' },
  },
});
const count = (name, text) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number, got "${text}"`);
    process.exit(2);
  }
  return value;
};
const runs = count('runs', values.runs);
const load = count('load', values.load);

// Each loop spins on one core and checks now and then that this script is still its parent, so
// the loops end even if the script itself is killed with SIGKILL and cannot clean up.
const spinner = `const parent = ${process.pid};
for (;;) { for (let i = 0; i < 5e7; i += 1); if (process.ppid !== parent) process.exit(0); }`;
const loops = Array.from({ length: load }, () =>
  spawn(process.execPath, ['-e', spinner], { stdio: 'ignore' }),
);
let current;
let workdir;
const cleanUp = () => {
  for (const loop of loops) loop.kill('SIGKILL');
  if (workdir) rmSync(workdir, { recursive: true, force: true });
};
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    current?.kill(signal);
    cleanUp();
    process.exit(130);
  });
}

let cwd = process.cwd();
if (values.fresh) {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim();
  if (dirty) console.warn('Uncommitted changes are not part of the fresh clone.');
  workdir = mkdtempSync(join(tmpdir(), 'flotilla-stress-'));
  // mkdtemp makes it private to us; run as root, the embedded PostgreSQL runs as the postgres
  // user, which must reach its binaries inside.
  chmodSync(workdir, 0o755);
  console.log(`Cloning ${head.slice(0, 12)} into ${workdir} ...`);
  execFileSync('git', ['clone', '--quiet', '--no-checkout', process.cwd(), workdir]);
  execFileSync('git', ['-C', workdir, 'checkout', '--quiet', '--detach', head]);
  cwd = workdir;
}

const runOnce = () =>
  new Promise((resolve) => {
    current = spawn(values.command, { cwd, shell: true, stdio: 'inherit' });
    current.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const minutes = (ms) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
console.log(
  `${load} busy loop(s) on ${availableParallelism()} core(s); ${runs} run(s) of: ${values.command}`,
);
const results = [];
for (let run = 1; run <= runs; run += 1) {
  const started = Date.now();
  const code = await runOnce();
  const took = Date.now() - started;
  results.push({ run, code, took });
  console.log(
    `\n=== run ${run}/${runs}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${minutes(took)}`,
  );
  if (code !== 0) break;
}
console.log('\nSummary:');
for (const { run, code, took } of results) {
  console.log(`  run ${run}: ${code === 0 ? 'passed' : 'FAILED'}  ${minutes(took)}`);
}
const failed = results.some(({ code }) => code !== 0);
console.log(failed ? 'Stress test failed.' : `All ${runs} run(s) passed under load.`);
// Exiting runs cleanUp; the busy loops would otherwise keep this process alive.
process.exit(failed ? 1 : 0);
