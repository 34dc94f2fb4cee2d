// Where the server serves the device agent as an npm package (scripts/build-agent-package.mjs
// builds it), and the one command a device runs with it: npx installs the package from the
// server alone (it has no dependencies, so the npm registry is never asked) and starts it with
// the fleet's config.json.
export const agentPackagePath = '/agent/flotilla-agent.tgz';

// The oldest Node.js the packaged agent runs on (it uses AbortSignal.any, new in 20.3).
export const agentNodeVersion = '20.3';

// serverUrl: the server's public base URL as the device reaches it, e.g. http://10.0.0.5:8080.
export const agentInstallCommand = (serverUrl: string): string =>
  `npx --yes ${serverUrl.replace(/\/+$/, '')}${agentPackagePath} --config config.json`;

// Whether a URL names this machine only (localhost, 127.0.0.0/8, [::1]): a device elsewhere
// cannot reach a server by such an address.
export const isLoopbackUrl = (url: string): boolean => {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
};
