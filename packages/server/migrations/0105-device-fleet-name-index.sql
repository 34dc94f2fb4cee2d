-- The device list of a user who reads some fleets (a member, not an organization administrator),
-- by name: the page's ids come from this index alone, fleet by fleet, instead of from every device
-- row. Without it PostgreSQL read the whole table for a member of three fleets (a 100,000-device
-- organization: 4,024 pages against 22 with it) and sorted what was left; a deep page (`$skip` of
-- thousands) paid that on every request. `id` breaks ties between equal names, as the page's
-- order does.
CREATE INDEX "device_fleet_name_idx" ON "device" ("belongs_to__application", "device_name", "id");
