-- Catalogue rows every installation starts with: CPU architectures, device makers and families,
-- device types with their aliases, fleet types and the two membership role tables. Ids are
-- explicit so other rows (and tests) can rely on them; identity sequences are moved past them.

INSERT INTO "cpu_architecture" ("id", "slug") VALUES
  (1, 'rpi'),
  (2, 'armv7hf'),
  (3, 'aarch64'),
  (4, 'i386'),
  (5, 'i386-nlp'),
  (6, 'amd64');

INSERT INTO "device_manufacturer" ("id", "slug", "name") VALUES
  (1, 'raspberry-pi', 'Raspberry Pi Ltd'),
  (2, 'nvidia', 'NVIDIA'),
  (3, 'intel', 'Intel'),
  (4, 'beagleboard', 'BeagleBoard.org'),
  (5, 'hardkernel', 'Hardkernel'),
  (6, 'balena', 'balena'),
  (7, 'generic', 'Generic'),
  (8, 'aaeon', 'AAEON'),
  (9, 'google', 'Google'),
  (10, 'radxa', 'Radxa'),
  (11, 'friendlyelec', 'FriendlyElec'),
  (12, 'asus', 'ASUS'),
  (13, 'xunlong', 'Shenzhen Xunlong'),
  (14, 'variscite', 'Variscite');

INSERT INTO "device_family" ("id", "slug", "name", "is_manufactured_by__device_manufacturer") VALUES
  (1, 'raspberry-pi', 'Raspberry Pi', 1),
  (2, 'jetson', 'Jetson', 2),
  (3, 'nuc', 'NUC', 3),
  (4, 'beaglebone', 'BeagleBone', 4),
  (5, 'odroid', 'ODROID', 5),
  (6, 'balena-fin', 'balenaFin', 6),
  (7, 'generic', 'Generic', 7),
  (8, 'qemu', 'QEMU', 7),
  (9, 'up', 'UP', 8),
  (10, 'coral', 'Coral', 9),
  (11, 'rock-pi', 'ROCK Pi', 10),
  (12, 'nanopi', 'NanoPi', 11),
  (13, 'tinker-board', 'Tinker Board', 12),
  (14, 'orange-pi', 'Orange Pi', 13),
  (15, 'dart', 'DART', 14);

-- One row per device type; the contract is assembled from the columns below:
--   boot: how balenaOS gets onto the device, which decides the SDK's install method and the
--         instruction partials: 'sdcard' (boot from a flashed SD card), 'internal' (a flasher
--         image on alt_boot media writes internal storage), 'image' (a virtual machine image),
--         'rpiboot' (internal eMMC written over USB) or 'jetson' (NVIDIA's flashing tool).
WITH "types" ("id", "slug", "name", "arch", "family", "more_aliases", "boot", "alt_boot", "led", "wifi", "bluetooth") AS (
  VALUES
    (1, 'raspberry-pi', 'Raspberry Pi (v1 / Zero / Zero W)', 'rpi', 1, ARRAY['raspberrypi'], 'sdcard', NULL, true, true, true),
    (2, 'raspberry-pi2', 'Raspberry Pi 2', 'armv7hf', 1, ARRAY['raspberrypi2'], 'sdcard', NULL, true, false, false),
    (3, 'raspberrypi3', 'Raspberry Pi 3', 'armv7hf', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (4, 'raspberrypi3-64', 'Raspberry Pi 3 (using 64bit OS)', 'aarch64', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (5, 'raspberrypi4-64', 'Raspberry Pi 4 (using 64bit OS)', 'aarch64', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (6, 'raspberrypi400-64', 'Raspberry Pi 400', 'aarch64', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (7, 'raspberrypi5', 'Raspberry Pi 5', 'aarch64', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (8, 'raspberrypi0-2w-64', 'Raspberry Pi Zero 2 W (64bit OS)', 'aarch64', 1, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (9, 'raspberrypicm4-ioboard', 'Raspberry Pi CM4 IO Board', 'aarch64', 1, ARRAY[]::text[], 'rpiboot', NULL, true, true, true),
    (10, 'fincm3', 'balenaFin (CM3)', 'armv7hf', 6, ARRAY[]::text[], 'rpiboot', NULL, true, true, true),
    (11, 'intel-nuc', 'Intel NUC', 'amd64', 3, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, true, true),
    (12, 'generic-amd64', 'Generic x86_64 (GPT)', 'amd64', 7, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, false, false),
    (13, 'generic-aarch64', 'Generic AARCH64', 'aarch64', 7, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, false, false),
    (14, 'genericx86-64-ext', 'Generic x86_64 (legacy MBR)', 'amd64', 7, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, false, false),
    (15, 'generic-armv7ahf', 'Generic ARMv7-a HF', 'armv7hf', 7, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, false, false),
    (16, 'qemux86-64', 'QEMU X86 64bit', 'amd64', 8, ARRAY[]::text[], 'image', NULL, false, false, false),
    (17, 'qemux86', 'QEMU X86 32bit', 'i386', 8, ARRAY[]::text[], 'image', NULL, false, false, false),
    (18, 'jetson-nano', 'Nvidia Jetson Nano SD-CARD', 'aarch64', 2, ARRAY[]::text[], 'sdcard', NULL, false, false, false),
    (19, 'jetson-xavier', 'Nvidia Jetson Xavier AGX', 'aarch64', 2, ARRAY[]::text[], 'jetson', NULL, false, false, false),
    (20, 'jetson-xavier-nx-devkit', 'Nvidia Jetson Xavier NX Devkit SD-CARD', 'aarch64', 2, ARRAY[]::text[], 'sdcard', NULL, false, true, true),
    (21, 'jetson-orin-nano', 'Nvidia Jetson Orin Nano', 'aarch64', 2, ARRAY['jetson-orin-nano-devkit-nvme'], 'jetson', NULL, false, true, true),
    (22, 'jetson-tx2', 'Nvidia Jetson TX2', 'aarch64', 2, ARRAY[]::text[], 'jetson', NULL, false, true, true),
    (23, 'beaglebone-black', 'BeagleBone Black', 'armv7hf', 4, ARRAY[]::text[], 'internal', 'sdcard', true, false, false),
    (24, 'beaglebone-green', 'BeagleBone Green', 'armv7hf', 4, ARRAY[]::text[], 'internal', 'sdcard', true, false, false),
    (25, 'odroid-xu4', 'ODROID-XU4', 'armv7hf', 5, ARRAY[]::text[], 'sdcard', NULL, true, false, false),
    (26, 'up-board', 'UP Board', 'amd64', 9, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, false, false),
    (27, 'coral-dev', 'Coral Dev Board', 'aarch64', 10, ARRAY[]::text[], 'internal', 'sdcard', true, true, true),
    (28, 'rockpi-4b-rk3399', 'ROCK Pi 4B', 'aarch64', 11, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (29, 'nanopi-neo-air', 'NanoPi NEO Air', 'armv7hf', 12, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (30, 'asus-tinker-board', 'Asus Tinker Board', 'armv7hf', 13, ARRAY[]::text[], 'sdcard', NULL, true, true, true),
    (31, 'orange-pi-zero', 'Orange Pi Zero', 'armv7hf', 14, ARRAY[]::text[], 'sdcard', NULL, true, true, false),
    (32, 'imx8mm-var-dart', 'Variscite DART-MX8M Mini', 'aarch64', 15, ARRAY[]::text[], 'internal', 'usb_mass_storage', false, true, true)
)
INSERT INTO "device_type" (
  "id", "slug", "name", "is_of__cpu_architecture", "logo", "contract", "belongs_to__device_family", "is_private"
)
SELECT t."id", t."slug", t."name", a."id", NULL,
  jsonb_build_object(
    'slug', t."slug",
    'version', '1',
    'type', 'hw.device-type',
    'name', t."name",
    'aliases', to_jsonb(ARRAY[t."slug"] || t."more_aliases"),
    'data', jsonb_strip_nulls(jsonb_build_object(
      'arch', t."arch",
      'led', t."led",
      'connectivity', jsonb_build_object('wifi', t."wifi", 'bluetooth', t."bluetooth"),
      'storage', jsonb_build_object('internal', t."boot" <> 'sdcard'),
      'media', jsonb_build_object(
        'defaultBoot', CASE t."boot" WHEN 'sdcard' THEN 'sdcard' WHEN 'image' THEN 'image' ELSE 'internal' END,
        'altBoot', CASE WHEN t."alt_boot" IS NULL THEN NULL ELSE jsonb_build_array(t."alt_boot") END
      ),
      'flashProtocol', CASE t."boot" WHEN 'rpiboot' THEN 'RPIBOOT' WHEN 'jetson' THEN 'jetsonFlash' END,
      'is_private', false
    )),
    -- Install-instruction fragments the SDK's deviceType.getInstructions interpolates.
    'partials', CASE t."boot"
      WHEN 'sdcard' THEN jsonb_build_object('bootDevice', jsonb_build_array('Connect power to the {{name}}'))
      WHEN 'internal' THEN jsonb_build_object(
        'instructions', jsonb_build_array('Download the OS image for your fleet.'),
        'bootDeviceExternal', jsonb_build_array('Power on the {{name}} with the flashed media inserted; it writes balenaOS to its internal storage.'),
        'flashIndicator', 'the {{name}} has powered itself off',
        'bootDeviceInternal', jsonb_build_array(),
        'bootDevice', jsonb_build_array('Power on the {{name}}'))
      WHEN 'image' THEN jsonb_build_object('instructions', jsonb_build_array('Start a virtual machine from the downloaded image.'))
      WHEN 'rpiboot' THEN jsonb_build_object(
        'connectDevice', jsonb_build_array('Put the {{name}} in USB boot mode and connect it to your computer.'),
        'disconnectDevice', jsonb_build_array('Disconnect the {{name}} from your computer.'),
        'bootDevice', jsonb_build_array('Connect power to the {{name}}'))
      ELSE jsonb_build_object()
    END
  ),
  t."family", false
FROM "types" t
JOIN "cpu_architecture" a ON a."slug" = t."arch";

-- Each device type answers to its own slug and to the extra aliases in its contract.
INSERT INTO "device_type_alias" ("device_type", "is_referenced_by__alias")
SELECT d."id", alias_slug
FROM "device_type" d, jsonb_array_elements_text(d."contract" -> 'aliases') AS alias_slug
ORDER BY d."id";

INSERT INTO "application_type" (
  "id", "slug", "name", "description", "is_legacy", "requires_payment", "supports_multicontainer",
  "supports_web_url", "supports_gateway_mode", "needs__os_version_range", "maximum_device_count"
) VALUES
  -- The default for new fleets (see flotilla_default_application_type in 0001-schema.sql).
  (1, 'microservices', 'Microservices',
   'Several containers per device, public device URLs and every fleet feature.',
   false, false, true, true, true, '>=2.12.0', NULL),
  (2, 'essentials', 'Essentials',
   'One container per device and no public device URLs.',
   false, false, false, false, false, NULL, NULL),
  (3, 'starter', 'Starter',
   'Legacy fleet type of the former free plan: one container per device.',
   true, false, false, true, false, NULL, NULL),
  (4, 'microservices-starter', 'Starter',
   'Legacy fleet type of the former free plan: several containers per device.',
   true, false, true, true, true, '>=2.12.0', NULL);

-- Roles a direct fleet membership or a team's fleet access can carry; "administrator" comes only
-- from administering the organization that owns the fleet.
INSERT INTO "application_membership_role" ("id", "name", "description") VALUES
  (1, 'observer', 'Can see the fleet, its devices and releases, and change nothing.'),
  (2, 'safe-operator', 'Can manage devices, their variables and tags, open terminals and update host OSes.'),
  (3, 'operator', 'Safe operator, plus moving, deactivating and deleting devices and device configuration.'),
  (4, 'safe-developer', 'Operator without deleting devices, plus pushing releases and editing fleet variables.'),
  (5, 'developer', 'Full access to the fleet''s devices, releases and configuration.');

INSERT INTO "organization_membership_role" ("id", "name") VALUES
  (1, 'administrator'),
  (2, 'member');

SELECT setval(pg_get_serial_sequence('"cpu_architecture"', 'id'), (SELECT max("id") FROM "cpu_architecture"));
SELECT setval(pg_get_serial_sequence('"device_manufacturer"', 'id'), (SELECT max("id") FROM "device_manufacturer"));
SELECT setval(pg_get_serial_sequence('"device_family"', 'id'), (SELECT max("id") FROM "device_family"));
SELECT setval(pg_get_serial_sequence('"device_type"', 'id'), (SELECT max("id") FROM "device_type"));
SELECT setval(pg_get_serial_sequence('"application_type"', 'id'), (SELECT max("id") FROM "application_type"));
SELECT setval(pg_get_serial_sequence('"application_membership_role"', 'id'), (SELECT max("id") FROM "application_membership_role"));
SELECT setval(pg_get_serial_sequence('"organization_membership_role"', 'id'), (SELECT max("id") FROM "organization_membership_role"));
