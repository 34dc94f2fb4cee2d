// A fleet's git remote (server: features/git-remote; console: the Add-release instructions): a
// push of `main` (or `master`) to it builds a release. Its path is the fleet's slug
// (`<organization handle>/<fleet name>`) under /git/.
export const gitRemoteUrl = (serverUrl: string, fleetSlug: string): string =>
  `${serverUrl.replace(/\/+$/, '')}/git/${fleetSlug}.git`;

// The remote's name in the commands the console shows.
export const gitRemoteName = 'flotilla';

export const gitPushCommands = (serverUrl: string, fleetSlug: string): string[] => [
  `git remote add ${gitRemoteName} ${gitRemoteUrl(serverUrl, fleetSlug)}`,
  `git push ${gitRemoteName} main`,
];
