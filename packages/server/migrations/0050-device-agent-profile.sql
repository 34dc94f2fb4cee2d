-- What a Flotilla agent reports about itself (shared/device-protocol/agent-profile-rules.ts):
-- whether it runs containers, the CPU architecture and board it detected, the configuration
-- variables it applies. NULL for balena's supervisor and devices that never sent one.
ALTER TABLE "device" ADD COLUMN "agent_profile" jsonb;
