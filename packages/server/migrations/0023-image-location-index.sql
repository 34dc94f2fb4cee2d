-- Registry tokens (features/registry) find images by the repository they are stored at.
CREATE INDEX "image_is_stored_at__image_location_idx" ON "image" ("is_stored_at__image_location");
