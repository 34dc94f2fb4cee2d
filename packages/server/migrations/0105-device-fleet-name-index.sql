-- The device list of a user who reads some fleets (a member, not an organization administrator),
-- by name: the page's ids can come from this index alone, fleet by fleet, instead of from every
-- device row. For a member of three fleets of a 100,000-device organization, a deep page
-- (`$skip` of thousands) read 4,024 pages of the table for its ids, 22 of this index. PostgreSQL
-- picks it when it thinks it cheaper than the table scan (it expects more fleets than a member
-- has, so not yet when the table's visibility map is empty). `id` breaks ties between equal
-- names, as the page's order does.
CREATE INDEX "device_fleet_name_idx" ON "device" ("belongs_to__application", "device_name", "id");
