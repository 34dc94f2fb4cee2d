-- Device logs partitioned by the day they were received (features/device-logs/log-partitions.ts):
-- old lines go by dropping whole days (FLOTILLA_LOG_RETENTION_DAYS), never by a mass DELETE, and
-- the tables that take inserts stay small. A scheduled job creates the days ahead and drops the
-- expired ones; the DEFAULT partition only catches lines outside every day created (a clock far
-- off), so none is ever refused.
--
-- The existing rows are copied over in this migration (one INSERT ... SELECT, inside the
-- migration's transaction): every line received before today lands in one partition, dropped as
-- a whole once its end is older than the retention.

ALTER TABLE "device_log" RENAME TO "device_log_unpartitioned";
ALTER INDEX "device_log_device_id_idx" RENAME TO "device_log_unpartitioned_device_id_idx";
ALTER TABLE "device_log_unpartitioned" RENAME CONSTRAINT "device_log_pkey" TO "device_log_unpartitioned_pkey";
ALTER TABLE "device_log_unpartitioned" RENAME CONSTRAINT "device_log_device_fkey" TO "device_log_unpartitioned_device_fkey";

-- A plain sequence rather than an identity column (identity columns on partitioned tables need
-- PostgreSQL 17; Debian's 15 must work). Ids keep rising across the conversion.
CREATE SEQUENCE "device_log_row_id_seq" AS bigint;

CREATE TABLE "device_log" (
  "id" bigint NOT NULL DEFAULT nextval('"device_log_row_id_seq"'),
  "device" integer NOT NULL REFERENCES "device" ON DELETE CASCADE,
  -- When the server received the line (ms): the partition key.
  "created_at" bigint NOT NULL,
  -- When the device says it happened.
  "timestamp" bigint NOT NULL,
  "message" text NOT NULL,
  "is_system" boolean NOT NULL DEFAULT false,
  "is_stderr" boolean NOT NULL DEFAULT false,
  -- The service as the device reports it; no foreign key (0004).
  "service_id" integer,
  -- The receiving process and its order there (0011).
  "origin" bigint,
  "origin_seq" bigint
) PARTITION BY RANGE ("created_at");
-- No primary key: one on a partitioned table must hold the partition key, and every insert
-- would pay for a second index. The sequence alone hands out ids.
ALTER SEQUENCE "device_log_row_id_seq" OWNED BY "device_log"."id";

-- History, live reads (id > last seen), the per-device cap and device deletion all walk one
-- device's lines by id: one such index per partition.
CREATE INDEX "device_log_device_id_idx" ON "device_log" ("device", "id");

CREATE TABLE "device_log_default" PARTITION OF "device_log" DEFAULT;

DO $$
DECLARE
  day_ms constant bigint := 86400000;
  today constant bigint := floor(extract(epoch FROM now()) * 1000 / 86400000)::bigint * 86400000;
  day bigint;
BEGIN
  EXECUTE format(
    'CREATE TABLE %I PARTITION OF "device_log" FOR VALUES FROM (MINVALUE) TO (%s)',
    'device_log_before_' || to_char(to_timestamp(today / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD'),
    today);
  -- Today and the next two days; the job keeps a week ahead from the server's start on.
  FOR offset_days IN 0..2 LOOP
    day := today + offset_days * day_ms;
    EXECUTE format(
      'CREATE TABLE %I PARTITION OF "device_log" FOR VALUES FROM (%s) TO (%s)',
      'device_log_' || to_char(to_timestamp(day / 1000) AT TIME ZONE 'UTC', 'YYYYMMDD'),
      day, day + day_ms);
  END LOOP;
END $$;

INSERT INTO "device_log" ("id", "device", "created_at", "timestamp", "message", "is_system",
                          "is_stderr", "service_id", "origin", "origin_seq")
SELECT "id", "device", "created_at", "timestamp", "message", "is_system",
       "is_stderr", "service_id", "origin", "origin_seq"
  FROM "device_log_unpartitioned";

SELECT setval('"device_log_row_id_seq"', coalesce(max("id"), 0) + 1, false)
  FROM "device_log_unpartitioned";

DROP TABLE "device_log_unpartitioned";
ALTER SEQUENCE "device_log_row_id_seq" RENAME TO "device_log_id_seq";
