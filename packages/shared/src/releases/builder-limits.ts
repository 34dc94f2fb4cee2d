// Limits of the compose builder (docs/RELEASES.md): a project is refused with a 400 naming the
// limit, before anything is created.
export const builderLimits = {
  // The tarball as uploaded, downloaded or pushed (git packs included).
  projectBytes: 20 * 1024 * 1024,
  // Everything the tarball unpacks to.
  unpackedBytes: 200 * 1024 * 1024,
  // docker-compose.yml and balena.yml, each.
  manifestBytes: 256 * 1024,
  // Services of one composition.
  services: 64,
  // Downloading a tarball URL.
  fetchTimeoutMs: 30_000,
  // Redirects followed when downloading a tarball URL (each hop checked like the first).
  maxRedirects: 5,
  // Builds from a URL one user may start per hour (each makes the server download for them).
  urlBuildsPerHour: 60,
  // Uploaded projects one user may build per hour (each makes the server unpack up to
  // unpackedBytes for them).
  uploadBuildsPerHour: 60,
  // Characters of a container engine's output kept in a release's build log (and streamed), and
  // of each of its lines: a build printing without end costs the server no more, and the log
  // stays within what a release's build_log holds (1 MiB) with the builder's own lines.
  engineOutputChars: 768 * 1024,
  engineOutputLineChars: 2_000,
} as const;

// The build log view shows at most this many lines.
export const buildLogDisplayLines = 2999;

// The compose file names the builder looks for, in order (as balena-cli does).
export const composeFileNames = ['docker-compose.yml', 'docker-compose.yaml'] as const;
