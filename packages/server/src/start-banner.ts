// What an operator needs once the server is up, printed last (so it does not scroll away) and
// again by `npm start` after the simulated devices started.

export type StartBannerInfo = {
  // Where the console and the API answer, e.g. http://localhost:8080
  url: string;
  adminEmail: string;
  // Only on the start that generated it (no FLOTILLA_ADMIN_PASSWORD).
  generatedPassword: string | undefined;
  // Where data lives: the embedded cluster's directory, or the external server (no secrets).
  database: { kind: 'embedded'; dir: string } | { kind: 'external'; location: string };
  // FLOTILLA_DATA_DIR (secrets, demo keys, the simulator's identities).
  dataDir: string;
  simulatedDevices?: number;
  // With the demo: whether this machine can run a real device of it (demo-engine.ts).
  realDevices?: RealDevices;
};

export type RealDevices = { kind: 'real'; fleet: string } | { kind: 'simulated'; reason: string };

// host:port/database of a connection URL, without user or password.
export const databaseLocation = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return '(unreadable DATABASE_URL)';
  }
};

// Loopback addresses read better as localhost; other hosts are kept as they are.
export const consoleUrl = (listenUrl: string): string =>
  listenUrl.replace('//127.0.0.1:', '//localhost:').replace('//[::1]:', '//localhost:');

const rule = '─'.repeat(60);

export const formatStartBanner = (info: StartBannerInfo): string[] => {
  const rows: [string, string][] = [
    ['Console and API', info.url],
    ['Administrator', info.adminEmail],
  ];
  if (info.generatedPassword !== undefined) {
    rows.push(['Password', `${info.generatedPassword}  (generated, shown at this start only)`]);
  }
  rows.push([
    'Database',
    info.database.kind === 'embedded'
      ? `embedded PostgreSQL, data in ${info.database.dir}`
      : `PostgreSQL at ${info.database.location} (DATABASE_URL)`,
  ]);
  rows.push(['Data directory', info.dataDir]);
  if (info.simulatedDevices !== undefined && info.simulatedDevices > 0) {
    rows.push(['Simulated devices', `${info.simulatedDevices} in the Demo fleets`]);
  }
  if (info.realDevices?.kind === 'real') {
    rows.push([
      'Real device',
      `FLOTILLA_PASSWORD=<password> npm run device -- --fleet ${info.realDevices.fleet} --email ${info.adminEmail}`,
    ]);
  } else if (info.realDevices?.kind === 'simulated') {
    rows.push(['Real device', `not available here: ${info.realDevices.reason}`]);
  }
  rows.push(['Stop', 'Ctrl-C']);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    rule,
    '  Flotilla is ready',
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    rule,
  ];
};
