-- Binds the database to its data directory (infra/installation/installation-binding.ts): the
-- same id, and how many times a server started on them, are kept in <data dir>/installation.
-- The file sweeps (release assets, git repositories) delete files only while the two agree, so a
-- wrong DATABASE_URL or an older copy of the database never makes them delete live data.
CREATE TABLE "flotilla_installation" (
  "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
  "id" text NOT NULL,
  "starts" bigint NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now()
);
