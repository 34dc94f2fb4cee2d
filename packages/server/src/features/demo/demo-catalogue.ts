import type { Queryable } from '../../infra/db/database.js';
import type { CatalogueEntry } from '../host-os/catalogue-entry.js';
import { importCatalogue } from '../host-os/catalogue-store.js';

// The small host OS catalogue the demo starts with: a few balenaOS releases for each demo device
// type (the versions the simulated devices report, a newer one to update to, and an ESR release
// devices at or below its base can switch to) and the
// supervisor releases of their CPU architectures. The images name no real registry: simulated
// devices only pretend to pull them.
const demoDeviceTypes = ['raspberrypi4-64', 'generic-amd64', 'raspberrypi5'] as const;
const demoArchitectures = ['aarch64', 'amd64'] as const;

type DemoOsRelease = {
  version: string;
  phase: CatalogueEntry['phase'];
  notes: string;
  // An ESR release's regular base: devices at or below it may switch to the ESR line.
  baseVersion?: string;
};

const osReleases: readonly DemoOsRelease[] = [
  { version: '5.3.24', phase: 'sunset', notes: 'Last release of the 5.x line.' },
  { version: '6.0.13', phase: null, notes: 'Kernel and engine updates.' },
  { version: '6.1.24', phase: null, notes: 'Faster boot; NetworkManager 1.46.' },
  { version: '6.3.18', phase: null, notes: 'Persistent logging off by default.' },
  { version: '6.5.9', phase: null, notes: 'Security fixes.' },
  { version: '6.6.1', phase: 'current', notes: 'Newest release: engine 25, kernel 6.6.' },
  {
    version: '2025.1.0',
    phase: 'current',
    notes: 'Extended support release (ESR), cut from 6.1.24: security fixes only.',
    baseVersion: '6.1.24',
  },
];

const supervisorReleases = ['16.7.9', '16.12.5', '17.0.1', '17.1.4'] as const;

export const demoCatalogue: CatalogueEntry[] = [
  ...demoDeviceTypes.flatMap((deviceType) =>
    osReleases.map((release): CatalogueEntry => ({
      kind: 'os',
      deviceType,
      version: release.version,
      // One image for both development and production modes, as balenaOS 6 ships.
      variant: '',
      phase: release.phase,
      knownIssues: null,
      notes: `* ${release.notes}`,
      updaterImage: `flotilla-demo/hostapp-${deviceType}:${release.version}`,
      invalidated: false,
      baseVersion: release.baseVersion ?? null,
    })),
  ),
  ...demoArchitectures.flatMap((cpuArchitecture) =>
    supervisorReleases.map((version): CatalogueEntry => ({
      kind: 'supervisor',
      cpuArchitecture,
      version,
      phase: null,
      knownIssues: null,
      notes: null,
      updaterImage: `flotilla-demo/${cpuArchitecture}-supervisor:v${version}`,
      invalidated: false,
    })),
  ),
];

export const seedDemoCatalogue = (tx: Queryable) =>
  importCatalogue(tx, { releases: demoCatalogue });
