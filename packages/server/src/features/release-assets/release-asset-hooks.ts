import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values, WriteContext } from '../../infra/odata/hooks.js';
import { storeAsset, UploadedAsset } from './asset-files.js';

export const assetMustBeFile =
  "'asset' of 'release_asset' must be a file sent as multipart/form-data (or null)";

// The file of a multipart release_asset write, from the body check (prepare*) to the write
// (before*), which runs only once the engine has checked the caller's permission.
const pending = new WeakMap<WriteContext, UploadedAsset>();

const takeUpload = (ctx: WriteContext, body: Record<string, unknown>): void => {
  const asset = body.asset;
  if (asset instanceof UploadedAsset) {
    pending.set(ctx, asset);
    body.asset = null;
  } else if (asset !== null && asset !== undefined) {
    // A client-written href would let a row point anywhere; only uploaded files are assets.
    throw badRequest(assetMustBeFile);
  }
};

const storeUpload = async (dataDir: string, ctx: WriteContext, values: Values): Promise<void> => {
  const upload = pending.get(ctx);
  if (!upload) return;
  pending.delete(ctx);
  values.asset = JSON.stringify(await storeAsset(dataDir, upload));
};

// release_asset writes: the `asset` field is a file uploaded the way balena-sdk's
// release.asset.upload sends it, stored under the data directory.
export const registerReleaseAssetHooks = (hooks: HookRegistry, dataDir: string): void => {
  hooks.add('release_asset', {
    prepareCreate: (ctx, body) => {
      if (typeof body.asset_key === 'string' && body.asset_key.trim() === '') {
        throw badRequest("'asset_key' of 'release_asset' must not be empty");
      }
      takeUpload(ctx, body);
      return Promise.resolve();
    },
    prepareUpdate: (ctx, body) => {
      takeUpload(ctx, body);
      return Promise.resolve();
    },
    beforeCreate: (ctx, values) => storeUpload(dataDir, ctx, values),
    beforeUpdate: (ctx, _ids, values) => storeUpload(dataDir, ctx, values),
  });
};
