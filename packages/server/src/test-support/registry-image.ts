import { z } from 'zod';
import { loadRegistrySigningKey } from '../features/registry/registry-signing-key.js';
import { signRegistryToken } from '../features/registry/registry-token.js';

// What a test reads back of an image the builder pushed: its manifest and configuration as the
// registry serves them, with a pull token of the test's own.

const manifest = z.object({
  config: z.object({ digest: z.string() }),
  layers: z.array(z.object({ digest: z.string() })),
});

const imageConfig = z.object({
  architecture: z.string(),
  variant: z.string().optional(),
  os: z.string(),
  config: z.object({ Env: z.array(z.string()).nullish() }),
  history: z.array(z.object({ created_by: z.string().optional() })).optional(),
});

export type PushedImage = {
  config: z.infer<typeof imageConfig>;
  // Each layer's blob (a gzipped tar).
  layers: Buffer[];
};

export const pushedImage = async (
  registryHost: string,
  dataDir: string,
  location: string,
  digest: string,
): Promise<PushedImage> => {
  const repository = location.slice(registryHost.length + 1);
  const pull = await signRegistryToken(await loadRegistrySigningKey(dataDir), {
    issuer: 'flotilla',
    audience: registryHost,
    subject: 'test',
    access: [{ type: 'repository', name: repository, actions: ['pull'] }],
    now: new Date(),
  });
  const get = async (path: string, accept?: string): Promise<Response> => {
    const response = await fetch(`http://${registryHost}/v2/${repository}/${path}`, {
      headers: {
        authorization: `Bearer ${pull.token}`,
        ...(accept === undefined ? {} : { accept }),
      },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return response;
  };
  const served = manifest.parse(
    await (
      await get(
        `manifests/${digest}`,
        'application/vnd.docker.distribution.manifest.v2+json, application/vnd.oci.image.manifest.v1+json',
      )
    ).json(),
  );
  return {
    config: imageConfig.parse(await (await get(`blobs/${served.config.digest}`)).json()),
    layers: await Promise.all(
      served.layers.map(async (layer) =>
        Buffer.from(await (await get(`blobs/${layer.digest}`)).arrayBuffer()),
      ),
    ),
  };
};
