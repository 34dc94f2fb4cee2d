#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig } from './infra/config/config.js';
import { openDatabase } from './infra/db/database.js';
import { accessInstallationDatabase } from './infra/db/embedded-access.js';
import {
  createPlatformAdministrator,
  type RecoveryResult,
  resetUserPassword,
} from './features/users/admin-recovery.js';

// `npm run admin -- reset-password <e-mail or username> [--password-stdin] [--clear-two-factor]`
// `npm run admin -- create-admin <e-mail> [--password-stdin]` (or `flotilla-admin ...`): account
// recovery from the server's machine, on the installation the environment configures
// (DATABASE_URL, FLOTILLA_DATA_DIR), as for the server. See docs/OPERATING.md.

const usage =
  'usage: reset-password <e-mail or username> [--password-stdin] [--clear-two-factor]\n' +
  '       create-admin <e-mail> [--password-stdin]';

// A password typed on the command line would stay in the shell's history and the process list.
const readPasswordFromStdin = async (): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
};

const report = (result: RecoveryResult): void => {
  console.log(result.summary);
  console.log(`  username: ${result.username}`);
  if (result.email !== null) console.log(`  e-mail:   ${result.email}`);
  if (result.generatedPassword !== undefined) {
    console.log(
      `  password: ${result.generatedPassword}  (shown once; change it after signing in)`,
    );
  }
  if (!result.isPlatformAdministrator) console.log('  (not a platform administrator)');
};

const main = async (): Promise<void> => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      'password-stdin': { type: 'boolean', default: false },
      'clear-two-factor': { type: 'boolean', default: false },
    },
  });
  const [command, who, ...rest] = positionals;
  const known = command === 'reset-password' || command === 'create-admin';
  if (!known || !who || rest.length > 0) throw new Error(usage);
  if (command === 'create-admin' && values['clear-two-factor']) throw new Error(usage);
  const password = values['password-stdin'] ? await readPasswordFromStdin() : undefined;
  const config = loadConfig(process.env);
  const access = await accessInstallationDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const db = openDatabase(access.url);
  try {
    const result =
      command === 'reset-password'
        ? await resetUserPassword(db, {
            who,
            password,
            clearTwoFactor: values['clear-two-factor'],
          })
        : await createPlatformAdministrator(db, { email: who, password });
    report(result);
  } finally {
    await db.close();
    await access.release();
  }
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
