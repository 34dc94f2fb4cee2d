-- The live event streams open at a time, one row per stream, shared by every process so the
-- per-user limit holds across nodes. A process renews its streams' leases with each heartbeat
-- and deletes them when they close; the leases of a process that died expire on their own.
CREATE TABLE "event_stream_lease" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "user" integer NOT NULL REFERENCES "user" ("id") ON DELETE CASCADE,
  "expires_at" timestamptz NOT NULL
);
CREATE INDEX "event_stream_lease_user_idx" ON "event_stream_lease" ("user", "expires_at");
CREATE INDEX "event_stream_lease_expires_at_idx" ON "event_stream_lease" ("expires_at");
