import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

// What `npm run device` needs to make this machine a device of a fleet: the server, the fleet's
// slug (`<organization>/<fleet>`) and a credential of a user who may add devices to it (an API key
// or session token, or an e-mail and password to sign in with).
export type JoinFleetOptions = {
  api: string;
  fleet: string;
  configPath: string;
  token?: string;
  email?: string;
  password?: string;
  // flotilla.containerEngine of the config (default auto).
  containerEngine?: string;
};

export class JoinFleetError extends Error {}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};

const call = async (
  api: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<unknown> => {
  const response = await fetch(new URL(path, api), {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new JoinFleetError(
      `${init.method ?? 'GET'} ${path}: ${response.status} ${text.slice(0, 300)}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const tokenOf = async (options: JoinFleetOptions): Promise<string> => {
  if (options.token) return options.token;
  if (!options.email || !options.password) {
    throw new JoinFleetError(
      'Give a credential: FLOTILLA_TOKEN (an API key or session token), or --email with FLOTILLA_PASSWORD',
    );
  }
  const token = await call(options.api, '/login_', {
    method: 'POST',
    body: { username: options.email, password: options.password },
  });
  if (typeof token !== 'string') throw new JoinFleetError('The server answered no session token');
  return token;
};

const exists = async (path: string): Promise<boolean> => {
  try {
    await readFile(path);
    return true;
  } catch {
    return false;
  }
};

// Writes the fleet's config.json for this machine, unless one is there already (the device keeps
// its identity across runs). The device's power commands only log: a developer's machine is not
// rebooted by the console's Reboot.
export const joinFleet = async (options: JoinFleetOptions): Promise<'created' | 'kept'> => {
  if (await exists(options.configPath)) return 'kept';
  const token = await tokenOf(options);
  const slug = options.fleet.toLowerCase();
  const found = asRecord(
    await call(
      options.api,
      `/v7/application?$select=id&$filter=${encodeURIComponent(`slug eq '${slug.replaceAll("'", "''")}'`)}`,
      { token },
    ),
  );
  const [fleet] = Array.isArray(found.d) ? found.d : [];
  const appId = asRecord(fleet).id;
  if (typeof appId !== 'number') {
    throw new JoinFleetError(`No fleet ${slug} that this account may see`);
  }
  const config = asRecord(
    await call(options.api, '/download-config', {
      method: 'POST',
      token,
      body: { appId, provisioningKeyName: 'npm run device' },
    }),
  );
  const logOnly = (what: string) => [
    'sh',
    '-c',
    `echo "${what} requested: not done on a development device"`,
  ];
  config.flotilla = {
    ...asRecord(config.flotilla),
    containerEngine: options.containerEngine ?? 'auto',
    rebootCommand: logOnly('reboot'),
    shutdownCommand: logOnly('shutdown'),
  };
  await mkdir(dirname(options.configPath), { recursive: true, mode: 0o700 });
  await writeFile(options.configPath, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return 'created';
};
