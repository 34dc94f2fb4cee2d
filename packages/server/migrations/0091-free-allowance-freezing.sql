-- Devices frozen because their organization's free plan allows fewer (the newest over the
-- allowance): marked so that an upgrade, or a device removed, unfreezes them and leaves devices
-- frozen for other reasons alone.

ALTER TABLE "device" ADD COLUMN "is_frozen_over__allowance" boolean NOT NULL DEFAULT false;
