import { z } from 'zod';
import { allowedNetworks } from './allowed-networks.js';

// The code host the console looks repositories up on (a fleet's repository URL and its
// balena.yml): where repository URLs point, its API (a repository's default branch) and where it
// serves raw files. GitHub by default; a self-hosted host (or a test's local stand-in) otherwise.
export type CodeHostConfig = {
  // Repository URLs are <webUrl>/<owner>/<repo>.
  webUrl: string;
  // GET <apiUrl>/repos/<owner>/<repo> answers the repository with its default_branch.
  apiUrl: string;
  // GET <rawUrl>/<owner>/<repo>/<branch>/balena.yml answers the file.
  rawUrl: string;
  // Networks the lookups may reach although private, loopback or link-local; empty = public only.
  allowedNetworks: string[];
  // Each lookup gives up after this long.
  timeoutMs: number;
};

const httpUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .default(fallback)
    .transform((value) => value.replace(/\/+$/, ''));

// The environment variables, spread into the server's one configuration schema.
export const codeHostEnv = {
  FLOTILLA_CODE_HOST_URL: httpUrl('https://github.com'),
  FLOTILLA_CODE_HOST_API_URL: httpUrl('https://api.github.com'),
  FLOTILLA_CODE_HOST_RAW_URL: httpUrl('https://raw.githubusercontent.com'),
  FLOTILLA_CODE_HOST_ALLOWED_NETWORKS: allowedNetworks(),
  FLOTILLA_CODE_HOST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
};

type CodeHostValues = {
  FLOTILLA_CODE_HOST_URL: string;
  FLOTILLA_CODE_HOST_API_URL: string;
  FLOTILLA_CODE_HOST_RAW_URL: string;
  FLOTILLA_CODE_HOST_ALLOWED_NETWORKS: string[];
  FLOTILLA_CODE_HOST_TIMEOUT_MS: number;
};

export const codeHostConfigOf = (values: CodeHostValues): CodeHostConfig => ({
  webUrl: values.FLOTILLA_CODE_HOST_URL,
  apiUrl: values.FLOTILLA_CODE_HOST_API_URL,
  rawUrl: values.FLOTILLA_CODE_HOST_RAW_URL,
  allowedNetworks: values.FLOTILLA_CODE_HOST_ALLOWED_NETWORKS,
  timeoutMs: values.FLOTILLA_CODE_HOST_TIMEOUT_MS,
});
