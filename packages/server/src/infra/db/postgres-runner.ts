import { execFile } from 'node:child_process';
import { chown, lchown, lstat, readdir, readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

// PostgreSQL refuses to run as root. How the embedded one's programs (initdb, postgres) run:
export type PostgresRunner =
  // Not root: as this user.
  | { kind: 'self' }
  // Root: inside a user namespace, as a non-zero uid that is root outside. The cluster stays
  // root's own (mode 700), so it works anywhere root can write, /root included.
  | { kind: 'user-namespace'; insideUid: number; insideGid: number }
  // Root where user namespaces are unavailable: as the "postgres" system user, which then must
  // be able to enter the data directory.
  | { kind: 'system-user'; uid: number; gid: number };

export type Invocation = { file: string; args: string[]; uid?: number; gid?: number };

export const invocationOf = (
  runner: PostgresRunner,
  program: string,
  args: readonly string[],
): Invocation => {
  switch (runner.kind) {
    case 'self':
      return { file: program, args: [...args] };
    case 'user-namespace':
      // unshare execs the program, so the process we spawn is PostgreSQL itself.
      return {
        file: 'unshare',
        args: [
          '--user',
          `--map-user=${runner.insideUid}`,
          `--map-group=${runner.insideGid}`,
          '--',
          program,
          ...args,
        ],
      };
    case 'system-user':
      return { file: program, args: [...args], uid: runner.uid, gid: runner.gid };
  }
};

export type Owner = { uid: number; gid: number };

// Who must own the cluster directory for PostgreSQL to accept it.
export const clusterOwnerOf = (runner: PostgresRunner): Owner => {
  if (runner.kind === 'system-user') return { uid: runner.uid, gid: runner.gid };
  const me = userInfo();
  return { uid: me.uid, gid: me.gid };
};

type Account = { name: string; uid: number; gid: number };

const readAccounts = async (): Promise<Account[]> => {
  const text = await readFile('/etc/passwd', 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    const [name, , uid, gid] = line.split(':');
    if (!name || uid === undefined || gid === undefined) return [];
    return [{ name, uid: Number(uid), gid: Number(gid) }];
  });
};

// initdb looks its user name up, so the uid inside the namespace must exist in /etc/passwd.
const insideAccountNames = ['postgres', 'daemon', 'nobody'];

const succeeds = async (invocation: Invocation): Promise<string | undefined> => {
  try {
    await execFileAsync(invocation.file, invocation.args, {
      uid: invocation.uid,
      gid: invocation.gid,
      timeout: 30_000,
    });
    return undefined;
  } catch (error) {
    const stderr =
      error instanceof Error && 'stderr' in error && typeof error.stderr === 'string'
        ? error.stderr.trim()
        : '';
    return stderr || (error instanceof Error ? error.message : String(error));
  }
};

const systemUser = async (why: string): Promise<PostgresRunner> => {
  let account = (await readAccounts()).find((candidate) => candidate.name === 'postgres');
  if (!account) {
    const failed = await succeeds({
      file: 'useradd',
      args: ['--system', '--user-group', '--no-create-home', 'postgres'],
    });
    account = (await readAccounts()).find((candidate) => candidate.name === 'postgres');
    if (!account) {
      throw new Error(
        `The embedded PostgreSQL cannot run as root; user namespaces are unavailable (${why}) ` +
          `and creating a "postgres" user failed (${failed ?? 'not found afterwards'}). ` +
          'Run Flotilla as an ordinary user, or set DATABASE_URL to an external PostgreSQL.',
      );
    }
  }
  return { kind: 'system-user', uid: account.uid, gid: account.gid };
};

// Picks how to run PostgreSQL here: as ourselves, or (root) in a user namespace when the kernel
// allows it (tried with `postgres --version`), else as the "postgres" user (created if missing).
export const choosePostgresRunner = async (postgresBinary: string): Promise<PostgresRunner> => {
  if (userInfo().uid !== 0) return { kind: 'self' };
  const accounts = await readAccounts();
  const inside = insideAccountNames
    .map((name) => accounts.find((account) => account.name === name && account.uid > 0))
    .find((account) => account !== undefined);
  if (!inside) return systemUser('no non-root account to map to');
  const runner: PostgresRunner = {
    kind: 'user-namespace',
    insideUid: inside.uid,
    insideGid: inside.gid,
  };
  const failure = await succeeds(invocationOf(runner, postgresBinary, ['--version']));
  return failure === undefined ? runner : systemUser(failure);
};

// As the system user, PostgreSQL must be able to enter every directory above its cluster.
export const assertReachable = async (runner: PostgresRunner, dir: string): Promise<void> => {
  if (runner.kind !== 'system-user') return;
  const failure = await succeeds({
    file: '/bin/sh',
    args: ['-c', 'test -x "$1"', 'sh', dir],
    uid: runner.uid,
    gid: runner.gid,
  });
  if (failure === undefined) return;
  throw new Error(
    `The embedded PostgreSQL cannot run as root and this machine does not allow user ` +
      `namespaces, so it runs as the "postgres" user, which cannot enter ${dir}. Put ` +
      'FLOTILLA_DATA_DIR where that user can reach it (e.g. /var/lib/flotilla), run Flotilla as ' +
      'an ordinary user, or set DATABASE_URL to an external PostgreSQL.',
  );
};

const chownTree = async (dir: string, owner: Owner): Promise<void> => {
  await chown(dir, owner.uid, owner.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(target, owner);
    // lchown: a symlink is re-owned itself, never what it points to.
    else await lchown(target, owner.uid, owner.gid);
  }
};

// A cluster made by another way of running (earlier versions ran PostgreSQL as the "postgres"
// user; a machine may have lost user namespaces) is handed to the owner PostgreSQL now needs.
// Returns whether anything changed. Only root can do this; others leave it to PostgreSQL's
// own "wrong ownership" message.
export const ensureClusterOwner = async (dir: string, owner: Owner): Promise<boolean> => {
  if (userInfo().uid !== 0) return false;
  const stat = await lstat(dir);
  if (stat.uid === owner.uid && stat.gid === owner.gid) return false;
  await chownTree(dir, owner);
  return true;
};
