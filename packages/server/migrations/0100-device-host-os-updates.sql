-- Whether the device's agent runs OS updates, as it says in its cloudlink hello (NULL: it did not
-- say: simulated devices and older agents, which answer an update for themselves). A host whose
-- operator did not enable OS updates is refused when the update is asked for, not after it was
-- sent. Not a balena field: nothing in /v7 shows it.
ALTER TABLE "device" ADD COLUMN "host_os_updates" boolean;
