import { randomBytes } from 'node:crypto';

// Where an image built elsewhere (balena deploy) is pushed: a fresh repository of the operator's
// registry, `<registry host>/v2/<32 hex>`, as balena names them. The repository part is what
// registry tokens grant (features/registry).
export const newImageLocation = (registryHost: string): string =>
  `${registryHost}/v2/${randomBytes(16).toString('hex')}`;

// The registry host of FLOTILLA_REGISTRY_URL, or the placeholder host when no registry is set
// (images can then only reference public images).
export const defaultRegistryHost = 'registry.flotilla.local';
