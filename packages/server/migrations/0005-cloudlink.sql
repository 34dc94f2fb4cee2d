-- Cloudlink routing between server processes (features/cloudlink). Not part of the v7 model. The
-- rows describe live websocket connections and the processes ("nodes") holding them; a process
-- reaches a device held by another through PostgreSQL LISTEN/NOTIFY on the holder's channel.

-- One row per running server process, refreshed every 10 s. A node not seen for 30 s is dead:
-- its sessions are swept and its devices marked disconnected by whichever node notices first.
CREATE TABLE "cloudlink_node" (
  "node_id" text PRIMARY KEY,
  "started_at" timestamptz NOT NULL DEFAULT now(),
  "seen_at" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX "cloudlink_node_seen_at_idx" ON "cloudlink_node" ("seen_at");

-- The one live cloudlink of a device: which node holds it. `connection_id` tells a newer
-- connection from the one it replaced, so the old one's late close never disconnects the device.
CREATE TABLE "cloudlink_session" (
  "device" integer PRIMARY KEY REFERENCES "device" ON DELETE CASCADE,
  "node_id" text NOT NULL,
  "connection_id" text NOT NULL,
  "connected_at" timestamptz NOT NULL
);
CREATE INDEX "cloudlink_session_node_id_idx" ON "cloudlink_session" ("node_id");

-- Replies too large for a NOTIFY payload (8000 bytes): the holder stores them here and notifies
-- the request id; the requester reads and deletes the row. Orphans are swept after 5 minutes.
CREATE TABLE "cloudlink_reply" (
  "request_id" text PRIMARY KEY,
  "result" jsonb NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX "cloudlink_reply_created_at_idx" ON "cloudlink_reply" ("created_at");
