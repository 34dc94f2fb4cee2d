-- Mail (issue 24): a message is delivered outside any transaction and its secrets do not outlive
-- delivery.
-- 'sending': claimed by a dispatcher, which hands it to SMTP without holding a row lock; the claim
-- lapses at "next_attempt_at" (a process that died mid-delivery), and another process retries it.
-- "redacted_at": when its links were removed from the bodies (delivered through SMTP, or given up).
ALTER TABLE "mail_message" DROP CONSTRAINT "mail_message_status_check";
ALTER TABLE "mail_message" ADD CONSTRAINT "mail_message_status_check"
  CHECK ("status" IN ('queued', 'sending', 'sent', 'stored', 'failed'));
ALTER TABLE "mail_message" ADD COLUMN "redacted_at" timestamptz;
DROP INDEX "mail_message_queued_idx";
CREATE INDEX "mail_message_due_idx" ON "mail_message" ("next_attempt_at")
  WHERE "status" IN ('queued', 'sending');
