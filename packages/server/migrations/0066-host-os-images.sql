-- Provisioning images (docs/HOST-OS.md, "Provisioning images"): an OS image a platform
-- administrator uploaded, or had the server fetch from a public URL, for one host OS release of
-- the catalogue. The file lives under the data directory (`os-images/<file>`); removing the
-- release removes the row (the route removes the file).
CREATE TABLE "host_os_image" (
  "release" integer PRIMARY KEY REFERENCES "release" ON DELETE CASCADE,
  "file" text NOT NULL UNIQUE CHECK ("file" ~ '^[0-9a-f]{32}$'),
  "filename" text NOT NULL CHECK (length("filename") BETWEEN 1 AND 255),
  "size" bigint NOT NULL CHECK ("size" > 0),
  "sha256" text NOT NULL CHECK ("sha256" ~ '^[0-9a-f]{64}$'),
  "source_url" text,
  "created_at" timestamptz NOT NULL DEFAULT now()
);

-- A download asked for by a signed-in user (POST /download-os-image): the browser then fetches
-- the image with the ticket alone (GET /os-image-download/:ticket), once, within minutes. Only
-- the ticket's SHA-256 is kept; the config.json to write carries the new provisioning key.
CREATE TABLE "host_os_image_download" (
  "ticket_hash" text PRIMARY KEY,
  "release" integer NOT NULL REFERENCES "host_os_image" ON DELETE CASCADE,
  "config" jsonb NOT NULL,
  "expires_at" timestamptz NOT NULL
);
CREATE INDEX "host_os_image_download_expires_idx" ON "host_os_image_download" ("expires_at");
-- Removing an image cascades to its download tickets through this.
CREATE INDEX "host_os_image_download_release_idx" ON "host_os_image_download" ("release");
