-- Release asset downloads (issue 12) look a file up by the uuid its href carries.
CREATE UNIQUE INDEX "release_asset_asset_uuid" ON "release_asset" (("asset" ->> 'uuid'));
