// The /deploy landing's configuration (name, description, author, logo URL and the raw
// parameters), read from the URL and kept in localStorage so that it survives a
// sign-in or sign-up on the way; kept configurations are dropped after 1 day, so a stale link does not linger.

export type DeployVariable = { name: string; value: string };

export type DeployConfig = {
  // What the builder downloads (balena-sdk's createFromUrl `url`).
  tarballUrl: string;
  repoUrl: string | null;
  name: string;
  description: string | null;
  author: string | null;
  logoUrl: string | null;
  deviceType: string;
  environment: DeployVariable[];
  configuration: DeployVariable[];
  // The query string it was read from.
  rawConfig: string;
};

export const deployConfigMaxAgeMs = 24 * 60 * 60 * 1000;
export const defaultDeployDeviceType = 'raspberrypi4-64';
export const deployConfigKey = 'flotilla.deploy-config';

const httpUrl = (text: string | null): string | null =>
  text !== null && /^https?:\/\/\S+$/i.test(text.trim()) ? text.trim() : null;

// A GitHub repository's archive of its default branch (GitHub serves HEAD as that branch).
const githubArchive = (repoUrl: string): string | null => {
  const match = /^https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/i.exec(repoUrl);
  return match ? `https://github.com/${match[1]}/${match[2]}/archive/HEAD.tar.gz` : null;
};

// The name a repository URL suggests for the fleet: its last path segment.
const nameFromUrl = (url: string): string =>
  url
    .replace(/\.git\/?$|\/+$/g, '')
    .split('/')
    .pop()
    ?.replace(/\.tar(\.gz)?$|\.tgz$/i, '') ?? '';

const variablesOf = (params: URLSearchParams, prefix: string): DeployVariable[] =>
  [...params.entries()]
    .filter(([key]) => key.startsWith(prefix) && key.length > prefix.length)
    .map(([key, value]) => ({ name: key.slice(prefix.length), value }));

// The configuration a /deploy URL carries, or null when it names nothing to deploy:
//   tarballUrl (or repoUrl of a GitHub repository), name, description, author, logoUrl,
//   deviceType (or defaultDeviceType), env.<NAME>=<value>, config.<NAME>=<value>.
export const parseDeployParams = (search: string): DeployConfig | null => {
  const params = new URLSearchParams(search);
  const repoUrl = httpUrl(params.get('repoUrl'));
  const tarballUrl =
    httpUrl(params.get('tarballUrl')) ?? (repoUrl === null ? null : githubArchive(repoUrl));
  if (tarballUrl === null) return null;
  const text = (key: string): string | null => {
    const value = params.get(key)?.trim() ?? '';
    return value === '' ? null : value;
  };
  return {
    tarballUrl,
    repoUrl,
    name: text('name') ?? nameFromUrl(repoUrl ?? tarballUrl),
    description: text('description'),
    author: text('author'),
    logoUrl: httpUrl(params.get('logoUrl')),
    deviceType: text('deviceType') ?? text('defaultDeviceType') ?? defaultDeployDeviceType,
    environment: variablesOf(params, 'env.'),
    configuration: variablesOf(params, 'config.'),
    rawConfig: params.toString(),
  };
};

export type StoredDeploy =
  { kind: 'none' } | { kind: 'found'; config: DeployConfig } | { kind: 'unreadable' };

export const saveDeployConfig = (storage: Storage, config: DeployConfig, now: number): void => {
  try {
    storage.setItem(deployConfigKey, JSON.stringify({ savedAt: now, rawConfig: config.rawConfig }));
  } catch {
    // Storage full or refused: the flow goes on without surviving a reload.
  }
};

export const dropDeployConfig = (storage: Storage): void => {
  storage.removeItem(deployConfigKey);
};

// The kept configuration, unless it is older than a day (then it is dropped) or unreadable.
export const loadDeployConfig = (storage: Storage, now: number): StoredDeploy => {
  const text = storage.getItem(deployConfigKey);
  if (text === null) return { kind: 'none' };
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    stored = null;
  }
  const savedAt =
    typeof stored === 'object' && stored !== null && 'savedAt' in stored ? stored.savedAt : null;
  const rawConfig =
    typeof stored === 'object' && stored !== null && 'rawConfig' in stored
      ? stored.rawConfig
      : null;
  const config = typeof rawConfig === 'string' ? parseDeployParams(rawConfig) : null;
  if (typeof savedAt !== 'number' || config === null) {
    dropDeployConfig(storage);
    return { kind: 'unreadable' };
  }
  if (now - savedAt > deployConfigMaxAgeMs) {
    dropDeployConfig(storage);
    return { kind: 'none' };
  }
  return { kind: 'found', config };
};
