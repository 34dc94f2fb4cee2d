import type { RepositoryContract } from '@flotilla/shared/fleets/repository-contract';
import type { CodeHostConfig } from '../../infra/config/code-host.js';
import { ApiError, badRequest, notFound } from '../../infra/errors/api-error.js';
import { parseBalenaYml } from '../builder/balena-yml.js';
import { codeHostGet, type CodeHostFetchOptions, codeHostUnavailable } from './code-host-fetch.js';

export type RepositoryLookup = {
  host: Pick<CodeHostConfig, 'webUrl' | 'apiUrl' | 'rawUrl'>;
  fetch: CodeHostFetchOptions;
};

// Owner and repository names as code hosts allow them (GitHub's: letters, digits, - . _).
const ownerPattern = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const repoPattern = /^[A-Za-z0-9._-]{1,100}$/;

const segment = (text: string): string => encodeURIComponent(text);

// <webUrl>/<owner>/<repo>, with an optional .git or trailing slash; null when the URL is not one.
export const parseRepositoryUrl = (
  text: string,
  webUrl: string,
): { owner: string; repo: string } | null => {
  let url: URL;
  let base: URL;
  try {
    url = new URL(text);
    base = new URL(webUrl);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.search !== '' || url.hash !== '') return null;
  const prefix = base.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${prefix}/`)) return null;
  const rest = url.pathname
    .slice(prefix.length + 1)
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  const [owner, repo, ...more] = rest.split('/');
  if (owner === undefined || repo === undefined || more.length > 0) return null;
  if (!ownerPattern.test(owner) || !repoPattern.test(repo) || repo === '.' || repo === '..') {
    return null;
  }
  return { owner, repo };
};

const invalidContract = (reason: string): ApiError =>
  badRequest(`The balena.yml contract in the repository is invalid: ${reason}`);

const defaultBranchOf = (body: string): string | null => {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || !('default_branch' in parsed)) return null;
    const branch = parsed.default_branch;
    return typeof branch === 'string' && branch !== '' ? branch : null;
  } catch {
    return null;
  }
};

const textOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value.slice(0, 1000) : null;

// The repository's default branch (from the code host's API), then its balena.yml on that branch
// (raw), checked as the builder checks it. Unknown repositories are "Repository not found".
export const lookUpRepositoryContract = async (
  text: string,
  { host, fetch }: RepositoryLookup,
): Promise<RepositoryContract> => {
  const names = parseRepositoryUrl(text, host.webUrl);
  if (names === null) {
    throw badRequest(
      `${text.slice(0, 300)} is not a repository URL: it must be ${host.webUrl}/<owner>/<repository>`,
    );
  }
  const { owner, repo } = names;
  const url = `${host.webUrl}/${owner}/${repo}`;
  const repository = await codeHostGet(
    new URL(`${host.apiUrl}/repos/${segment(owner)}/${segment(repo)}`),
    fetch,
  );
  // The code host answers an unknown or private repository with 404.
  if (repository.status === 404) throw notFound(`Repository not found: ${url}`);
  if (repository.status !== 200) codeHostFailed(repository.status);
  const branch = defaultBranchOf(repository.body);
  if (branch === null) throw codeHostUnavailable('the repository has no default branch');
  const file = await codeHostGet(
    new URL(
      `${host.rawUrl}/${segment(owner)}/${segment(repo)}/${branch.split('/').map(segment).join('/')}/balena.yml`,
    ),
    fetch,
  );
  if (file.status === 404) throw invalidContract(`there is no balena.yml on branch ${branch}`);
  if (file.status !== 200) codeHostFailed(file.status);
  let parsed: ReturnType<typeof parseBalenaYml>;
  try {
    parsed = parseBalenaYml(file.body);
  } catch (error) {
    if (error instanceof ApiError) throw invalidContract(error.message);
    throw error;
  }
  const { contract } = parsed;
  const pairs = (list: [string, string][]) => list.map(([name, value]) => ({ name, value }));
  return {
    url,
    owner,
    repo,
    branch,
    archiveUrl: `${url}/archive/${branch.split('/').map(segment).join('/')}.tar.gz`,
    contract: {
      name: parsed.name ?? null,
      type: textOrNull(contract.type),
      version: parsed.version ?? null,
      description: textOrNull(contract.description),
      defaultDeviceType: parsed.defaultDeviceType ?? null,
      supportedDeviceTypes: parsed.supportedDeviceTypes,
      environmentVariables: pairs(parsed.environmentVariables),
      configVariables: pairs(parsed.configVariables),
    },
  };
};

const codeHostFailed = (status: number): never => {
  throw codeHostUnavailable(`it answered ${status}`);
};
