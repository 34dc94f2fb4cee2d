// A supervisor release of the host OS catalogue names, as its updater image, the agent package a
// Flotilla agent updates itself to: the package's URL (absolute, or a path on the agent's server
// such as /agent/flotilla-agent.tgz) and its SHA-256, as `<url>#sha256=<64 hex digits>`. A
// registry image (balena-supervisor's) names no package.

export type AgentPackageRef = { url: string; sha256: string };

const refPattern = /^(?<location>[^#\s]+)#sha256=(?<sha256>[0-9a-fA-F]{64})$/;

export const parseAgentPackageRef = (
  updaterImage: string | null,
  apiEndpoint: string,
): AgentPackageRef | null => {
  const match = updaterImage === null ? null : refPattern.exec(updaterImage.trim());
  const location = match?.groups?.location;
  const sha256 = match?.groups?.sha256;
  if (location === undefined || sha256 === undefined) return null;
  if (!location.startsWith('/') && !/^https?:\/\//i.test(location)) return null;
  let url: URL;
  try {
    url = new URL(location, apiEndpoint);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { url: url.toString(), sha256: sha256.toLowerCase() };
};
