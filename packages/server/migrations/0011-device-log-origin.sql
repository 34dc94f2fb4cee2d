-- Where each log line was received (features/device-logs): the server process (`origin`, random
-- per start) and its order there (`origin_seq`). Live streams get a process's own lines straight
-- from ingest, before they are stored; these columns let a stream tell those apart from the rows
-- it reads, so no line is sent twice at the seam between history and live. Lines stored before
-- this migration have neither.
ALTER TABLE "device_log" ADD COLUMN "origin" bigint, ADD COLUMN "origin_seq" bigint;
