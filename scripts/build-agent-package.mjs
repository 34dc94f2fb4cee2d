// Builds the device agent as one installable npm package, packages/agent/dist/flotilla-agent.tgz,
// which the server serves at GET /agent/flotilla-agent.tgz so that a device can run
// `npx --yes http://<server>/agent/flotilla-agent.tgz --config config.json`.
// Everything (the agent, @flotilla/shared, ws, dockerode) is bundled into one file and the package has no
// dependencies: installing it needs nothing but the server, never the npm registry.
import { execFileSync } from 'node:child_process';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const agentDir = path.join(root, 'packages/agent');
const outFile = path.join(agentDir, 'dist/flotilla-agent.tgz');
// The oldest Node the agent runs on: agentNodeVersion in packages/shared/src/agent/agent-package.ts
// (the contract test checks that they agree).
const nodeRange = '>=20.3';

const agentManifest = JSON.parse(await readFile(path.join(agentDir, 'package.json'), 'utf8'));
const versionSource = await readFile(path.join(agentDir, 'src/version.ts'), 'utf8');
if (!versionSource.includes(`agentVersion = '${agentManifest.version}'`)) {
  throw new Error(
    `packages/agent/package.json (${agentManifest.version}) and src/version.ts disagree on the agent version`,
  );
}

// The packages bundled into cli.js (from esbuild's list of inputs), each with its license text.
const thirdPartyNotices = async (metafile) => {
  const names = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) names.add(match[1]);
  }
  const sections = [];
  for (const name of [...names].sort()) {
    const dir = path.join(root, 'node_modules', name);
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    const licenseFile = (await readdir(dir)).find((file) => /^licen[cs]e/i.test(file));
    const text = licenseFile
      ? (await readFile(path.join(dir, licenseFile), 'utf8')).trim()
      : `License: ${manifest.license ?? 'see the package'}`;
    sections.push(`## ${name} ${manifest.version}\n\n\`\`\`\n${text}\n\`\`\`\n`);
  }
  return `# Third-party notices\n\ncli.js bundles these packages, under these licenses:\n\n${sections.join('\n')}`;
};

// What dockerode carries that the agent never uses: ssh2 (engines reached over ssh://), gRPC and
// protobufjs (BuildKit sessions and progress of image builds); and zod's error messages in fifty
// languages (a fifth of the bundle: the agent's schemas speak English, which zod imports on its
// own). Loaded, they would cost every device memory; in their place a module whose every export
// throws, naming why.
const leftOutReasons = [
  {
    filter: /^(ssh2|@grpc\/grpc-js|@grpc\/proto-loader|protobufjs)$/,
    reason: 'container engines are reached over a unix socket or tcp://',
  },
  {
    filter: /^\.\.\/locales\/index\.js$/,
    importer: /[\\/]node_modules[\\/]zod[\\/]/,
    reason: "zod's messages other than English are left out",
  },
];
const leftOut = {
  name: 'left-out-of-the-agent',
  setup(bundle) {
    for (const { filter, importer, reason } of leftOutReasons) {
      bundle.onResolve({ filter }, (args) =>
        importer && !importer.test(args.importer)
          ? undefined
          : { path: args.path, namespace: 'left-out', pluginData: reason },
      );
    }
    bundle.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => {
      const message = `${args.path} is not part of the Flotilla agent (${args.pluginData})`;
      return {
        loader: 'js',
        contents: `const fail = function () { throw new Error(${JSON.stringify(message)}); };
module.exports = new Proxy({}, { get: (_target, key) => (key === '__esModule' ? false : fail) });`,
      };
    });
  },
};

const staging = await mkdtemp(path.join(tmpdir(), 'flotilla-agent-package-'));
try {
  const { metafile } = await build({
    entryPoints: [path.join(agentDir, 'src/cli.ts')],
    outfile: path.join(staging, 'cli.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Workspace packages resolve to their TypeScript sources, as in the tests.
    conditions: ['source'],
    // ws loads optional native speed-ups inside try/catch; without them it uses plain JS.
    external: ['bufferutil', 'utf-8-validate', '*.node'],
    plugins: [leftOut],
    // A device keeps the whole source in memory: without whitespace it is a third smaller. Names
    // stay, so stack traces in its logs still read.
    minifyWhitespace: true,
    minifySyntax: true,
    // ws and dockerode are CommonJS and use require, __dirname and __filename: give the ES
    // module bundle real ones.
    banner: {
      js: [
        "import { createRequire as flotillaCreateRequire } from 'node:module';",
        "import { fileURLToPath as flotillaFileUrlToPath } from 'node:url';",
        "import { dirname as flotillaDirname } from 'node:path';",
        'const require = flotillaCreateRequire(import.meta.url);',
        'const __filename = flotillaFileUrlToPath(import.meta.url);',
        'const __dirname = flotillaDirname(__filename);',
      ].join('\n'),
    },
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  // The package's command runs Node with the agent's flags (packages/agent/src/node-flags.ts): a
  // line both sh and JavaScript read, sh as `exec node <flags> cli.js <arguments>` (one process,
  // no wrapper left running), JavaScript as a string and a comment.
  const { agentNodeFlags } = await import(path.join(agentDir, 'dist/node-flags.js'));
  const bundled = path.join(staging, 'cli.js');
  const body = (await readFile(bundled, 'utf8')).replace(/^#![^\n]*\n/, '');
  await writeFile(
    bundled,
    `#!/bin/sh\n':' //; exec node ${agentNodeFlags.join(' ')} "$0" "$@"\n${body}`,
    { mode: 0o755 },
  );
  const manifest = {
    name: 'flotilla-agent',
    version: agentManifest.version,
    description:
      'Flotilla device agent: joins a Flotilla fleet with a config.json and speaks balena-supervisor’s cloud protocol',
    license: 'Apache-2.0',
    type: 'module',
    bin: { 'flotilla-agent': 'cli.js' },
    engines: { node: nodeRange },
  };
  await writeFile(path.join(staging, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await copyFile(path.join(agentDir, 'README.md'), path.join(staging, 'README.md'));
  await writeFile(path.join(staging, 'THIRD-PARTY-NOTICES.md'), await thirdPartyNotices(metafile));
  // npm pack writes the registry's tarball format (package/ prefix, fixed file times).
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', staging], {
      cwd: staging,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const [{ filename }] = packed;
  await mkdir(path.dirname(outFile), { recursive: true });
  await rename(path.join(staging, filename), outFile);
  console.log(`Built ${path.relative(root, outFile)} (flotilla-agent ${agentManifest.version})`);
} finally {
  await rm(staging, { recursive: true, force: true });
}
