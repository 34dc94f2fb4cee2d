// What the server found for a repository URL (GET /code-host/v1/repository-contract): the
// repository on the code host, its default branch and the balena.yml contract read from it.
export type RepositoryContract = {
  // The repository URL as the code host names it (no trailing slash or .git).
  url: string;
  owner: string;
  repo: string;
  branch: string;
  // A tarball of the default branch, as GitHub (and Gitea) serve it: what a release is built from.
  archiveUrl: string;
  contract: {
    name: string | null;
    type: string | null;
    version: string | null;
    description: string | null;
    defaultDeviceType: string | null;
    supportedDeviceTypes: string[];
    environmentVariables: { name: string; value: string }[];
    configVariables: { name: string; value: string }[];
  };
};
