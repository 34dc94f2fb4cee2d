-- The built-in help desk (issue 32): tickets of an organization, their messages and attachments,
-- and the installation's dynamic ticket-form fields.

-- The ticket form's extra fields (Zendesk's ticket fields): an installation edits these rows.
CREATE TABLE "support_ticket_field" (
  "id" serial PRIMARY KEY,
  "type" text NOT NULL CHECK ("type" IN ('text', 'textarea', 'tagger', 'checkbox')),
  "title" text NOT NULL,
  "description" text NOT NULL DEFAULT '',
  "is_required" boolean NOT NULL DEFAULT false,
  "is_active" boolean NOT NULL DEFAULT true,
  -- [{"name": label, "value": tag}] for a tagger (a drop-down).
  "options" jsonb NOT NULL DEFAULT '[]',
  "position" integer NOT NULL DEFAULT 0
);

INSERT INTO "support_ticket_field" ("type", "title", "description", "is_required", "options", "position")
VALUES
  ('tagger', 'Area', 'What the request is about', true,
   '[{"name":"Devices","value":"devices"},{"name":"Fleets and releases","value":"fleets"},{"name":"Account and organization","value":"account"},{"name":"Something else","value":"other"}]',
   1),
  ('text', 'Affected devices', 'UUIDs of the devices concerned, if any', false, '[]', 2);

CREATE TABLE "support_ticket" (
  "id" serial PRIMARY KEY,
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  "requester" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  -- Kept after the account is gone, so the queue still says who asked.
  "requester_name" text NOT NULL,
  "subject" text NOT NULL,
  "status" text NOT NULL DEFAULT 'new'
    CHECK ("status" IN ('new', 'open', 'pending', 'solved', 'closed')),
  "priority" text NOT NULL DEFAULT 'normal' CHECK ("priority" IN ('low', 'normal', 'high', 'urgent')),
  "assignee" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "cc" jsonb NOT NULL DEFAULT '[]',
  -- [{"id": field id, "value": ...}] as submitted, checked against support_ticket_field.
  "custom_fields" jsonb NOT NULL DEFAULT '[]',
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX "support_ticket_organization_idx" ON "support_ticket" ("organization");
CREATE INDEX "support_ticket_requester_idx" ON "support_ticket" ("requester");
CREATE INDEX "support_ticket_assignee_idx" ON "support_ticket" ("assignee");
CREATE INDEX "support_ticket_queue_idx" ON "support_ticket" ("status", "updated_at" DESC);

CREATE TABLE "support_ticket_message" (
  "id" serial PRIMARY KEY,
  "ticket" integer NOT NULL REFERENCES "support_ticket" ("id") ON DELETE CASCADE,
  "author" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "author_name" text NOT NULL,
  "is_from_agent" boolean NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX "support_ticket_message_ticket_idx" ON "support_ticket_message" ("ticket", "id");
CREATE INDEX "support_ticket_message_author_idx" ON "support_ticket_message" ("author");

-- An uploaded file: first on its own (the upload token the submit names), then part of a message.
-- Its bytes are <data dir>/support-attachments/<file_uuid>.
CREATE TABLE "support_attachment" (
  "id" serial PRIMARY KEY,
  "token" text NOT NULL UNIQUE,
  "organization" integer NOT NULL REFERENCES "organization" ("id") ON DELETE CASCADE,
  "uploaded_by" integer REFERENCES "user" ("id") ON DELETE SET NULL,
  "message" integer REFERENCES "support_ticket_message" ("id") ON DELETE CASCADE,
  "file_uuid" text NOT NULL UNIQUE,
  "file_name" text NOT NULL,
  "content_type" text NOT NULL,
  "size" integer NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX "support_attachment_organization_idx" ON "support_attachment" ("organization");
CREATE INDEX "support_attachment_uploaded_by_idx" ON "support_attachment" ("uploaded_by");
CREATE INDEX "support_attachment_message_idx" ON "support_attachment" ("message");
