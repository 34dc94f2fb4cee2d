// Naming rules for environment and configuration variables, served by GET /config/vars with
// balena's field names and meanings, and used by the console to validate before saving.
//
// - Configuration variables are the ones in a reserved namespace (RESIN_ or BALENA_); the device
//   agent reads them. Environment variables are everything else.
// - reservedNames: no variable may have these names.
// - blackListedNames: set by the device agent itself inside containers; nobody may set them.
// - whiteListedNames / whiteListedNamespaces: configuration variables meant to be set by users.

export const reservedVariableNames = ['RESIN', 'BALENA', 'USER'] as const;

export const reservedVariableNamespaces = ['RESIN_', 'BALENA_'] as const;

// An environment variable name starts with a letter and holds only letters,
// digits and underscores; a configuration variable name may also hold colons.
export const invalidVariableNamePattern = /^[^A-Za-z]|\W/;
export const invalidConfigVariableNamePattern = /^[^A-Za-z]|[^A-Za-z0-9_:]/;

const inBothNamespaces = (suffixes: readonly string[]): string[] =>
  reservedVariableNamespaces.flatMap((namespace) => suffixes.map((suffix) => namespace + suffix));

const supervisorSettings = [
  'SUPERVISOR_POLL_INTERVAL',
  'SUPERVISOR_INSTANT_UPDATE_TRIGGER',
  'SUPERVISOR_CONNECTIVITY_CHECK',
  'SUPERVISOR_LOG_CONTROL',
  'SUPERVISOR_LOCAL_MODE',
  'SUPERVISOR_PERSISTENT_LOGGING',
  'SUPERVISOR_VPN_CONTROL',
  'SUPERVISOR_OVERRIDE_LOCK',
  'SUPERVISOR_DELTA',
  'SUPERVISOR_DELTA_VERSION',
  'SUPERVISOR_DELTA_REQUEST_TIMEOUT',
  'SUPERVISOR_DELTA_APPLY_TIMEOUT',
  'SUPERVISOR_DELTA_RETRY_COUNT',
  'SUPERVISOR_DELTA_RETRY_INTERVAL',
  'SUPERVISOR_HARDWARE_METRICS',
  'SUPERVISOR_HANDOVER_TIMEOUT',
  'OVERRIDE_LOCK',
  'APP_RESTART_POLICY',
  'APP_RESTART_RETRIES',
  'HOST_FIREWALL_MODE',
  'HOST_DISCOVERABILITY',
  'HOST_SPLASH_IMAGE',
] as const;

export const whiteListedVariableNames: readonly string[] = inBothNamespaces(supervisorSettings);

// Host configuration families (config.txt on Raspberry Pi, extlinux, ODM data on Jetson boards).
export const whiteListedVariableNamespaces: readonly string[] = inBothNamespaces([
  'HOST_CONFIG_',
  'HOST_EXTLINUX_',
  'HOST_ODMDATA_',
  'UI_',
]);

export const blackListedVariableNames: readonly string[] = [
  ...reservedVariableNames,
  ...inBothNamespaces([
    'API_KEY',
    'API_URL',
    'APP_ID',
    'APP_NAME',
    'APP_UUID',
    'APP_COMMIT',
    'APP_RELEASE',
    'APP_LOCK_PATH',
    'SERVICE_NAME',
    'DEVICE_UUID',
    'DEVICE_NAME_AT_INIT',
    'DEVICE_TYPE',
    'DEVICE_ARCH',
    'HOST_OS_VERSION',
    'SUPERVISOR_VERSION',
    'SUPERVISOR_ADDRESS',
    'SUPERVISOR_HOST',
    'SUPERVISOR_PORT',
    'SUPERVISOR_API_KEY',
  ]),
];

export type VariableKind = 'environment' | 'config';

const inReservedNamespace = (name: string): boolean =>
  reservedVariableNamespaces.some((namespace) => name.startsWith(namespace));

// Why a name is refused, or undefined when it is acceptable for that kind of variable.
export const variableNameProblem = (name: string, kind: VariableKind): string | undefined => {
  if (name.length === 0) return 'The variable name is mandatory';
  if (kind === 'environment' && invalidVariableNamePattern.test(name)) {
    return `Variable name '${name}' must start with a letter and contain only letters, digits and underscores`;
  }
  if (kind === 'config' && invalidConfigVariableNamePattern.test(name)) {
    return `Variable name '${name}' must start with a letter and contain only letters, digits, underscores and colons`;
  }
  if (blackListedVariableNames.includes(name)) {
    return `Variable name '${name}' is reserved and cannot be set`;
  }
  if (kind === 'environment' && inReservedNamespace(name)) {
    return `Environment variables beginning with ${reservedVariableNamespaces.join(' or ')} are reserved for configuration variables`;
  }
  if (kind === 'config' && !inReservedNamespace(name)) {
    return `Configuration variables must begin with ${reservedVariableNamespaces.join(' or ')}`;
  }
  return undefined;
};

// The subset of JSON Schema the console's form renderer and balena's dashboard read.
export type ConfigVarProperty = {
  type: 'string' | 'integer' | 'boolean';
  description: string;
  default?: string | number | boolean;
  enum?: readonly (string | number)[];
  minimum?: number;
  examples?: readonly string[];
  // balena extensions: the device reboots to apply the value; a warning shown before saving.
  will_reboot?: boolean;
  warning?: string;
  // A file sent as a data URL (RFC 2397) of this media type, of at most `maxFileSize` bytes
  // (a Flotilla extension: the console refuses larger files before saving).
  format?: 'data-url';
  contentMediaType?: string;
  maxFileSize?: number;
};

export type ConfigVarSchema = {
  $schema: string;
  type: 'object';
  properties: Record<string, ConfigVarProperty>;
};

// A value is at most 100,000 characters (textLengthLimits.text); a PNG of 64 KiB is 87,382 base64
// characters plus its "data:image/png;base64," prefix, so it fits.
export const splashImageMaxBytes = 64 * 1024;

// Documented in the device agent's configuration reference; shown in the console's
// configuration tab. Intervals are milliseconds.
export const commonConfigVarProperties: Record<string, ConfigVarProperty> = {
  BALENA_SUPERVISOR_POLL_INTERVAL: {
    type: 'integer',
    description: 'Define the device agent polling interval in milliseconds',
    default: 900_000,
    minimum: 10_000,
  },
  BALENA_SUPERVISOR_INSTANT_UPDATE_TRIGGER: {
    type: 'boolean',
    description: 'Enable or disable instant updates triggered by the server',
    default: true,
  },
  BALENA_SUPERVISOR_CONNECTIVITY_CHECK: {
    type: 'boolean',
    description: 'Enable or disable the VPN connectivity check',
    default: true,
  },
  BALENA_SUPERVISOR_LOG_CONTROL: {
    type: 'boolean',
    description: 'Enable or disable sending logs to the server',
    default: true,
  },
  BALENA_SUPERVISOR_PERSISTENT_LOGGING: {
    type: 'boolean',
    description: 'Keep system logs on the device across reboots',
    default: false,
    will_reboot: true,
  },
  BALENA_SUPERVISOR_VPN_CONTROL: {
    type: 'boolean',
    description: 'Enable or disable the VPN',
    default: true,
  },
  BALENA_SUPERVISOR_OVERRIDE_LOCK: {
    type: 'boolean',
    description: 'Override update locks held by services',
    default: false,
  },
  BALENA_SUPERVISOR_DELTA: {
    type: 'boolean',
    description: 'Download only the differences between releases (delta updates)',
    default: true,
  },
  BALENA_SUPERVISOR_DELTA_VERSION: {
    type: 'integer',
    description: 'Delta format version',
    default: 3,
    enum: [2, 3],
  },
  BALENA_SUPERVISOR_DELTA_REQUEST_TIMEOUT: {
    type: 'integer',
    description: 'Delta request timeout in milliseconds',
    default: 59_000,
    minimum: 0,
  },
  BALENA_SUPERVISOR_DELTA_APPLY_TIMEOUT: {
    type: 'integer',
    description: 'Delta apply timeout in milliseconds (0 disables it)',
    default: 0,
    minimum: 0,
  },
  BALENA_SUPERVISOR_DELTA_RETRY_COUNT: {
    type: 'integer',
    description: 'Number of times a failed delta download is retried',
    default: 30,
    minimum: 0,
  },
  BALENA_SUPERVISOR_DELTA_RETRY_INTERVAL: {
    type: 'integer',
    description: 'Delay between delta download retries in milliseconds',
    default: 10_000,
    minimum: 0,
  },
  BALENA_SUPERVISOR_HARDWARE_METRICS: {
    type: 'boolean',
    description: 'Report CPU, memory, storage and temperature metrics',
    default: true,
  },
  BALENA_HOST_FIREWALL_MODE: {
    type: 'string',
    description: 'Host firewall mode',
    default: 'off',
    enum: ['on', 'off', 'auto'],
  },
  BALENA_HOST_DISCOVERABILITY: {
    type: 'boolean',
    description: 'Advertise the device on the local network (mDNS)',
    default: true,
  },
  BALENA_HOST_SPLASH_IMAGE: {
    type: 'string',
    description: 'Boot splash image (PNG)',
    format: 'data-url',
    contentMediaType: 'image/png',
    maxFileSize: splashImageMaxBytes,
    will_reboot: true,
  },
};

// Raspberry Pi config.txt settings, offered for device types that boot through config.txt.
export const hostConfigVarProperties: Record<string, ConfigVarProperty> = {
  BALENA_HOST_CONFIG_gpu_mem: {
    type: 'integer',
    description: 'GPU memory in megabytes',
    default: 16,
    minimum: 16,
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_dtoverlay: {
    type: 'string',
    description: 'Device tree overlays, as comma-separated quoted values',
    examples: ['"i2c-rtc","ds1307"', '"vc4-kms-v3d"'],
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_dtparam: {
    type: 'string',
    description: 'Device tree parameters, as comma-separated quoted values',
    default: '"i2c_arm=on","spi=on","audio=on"',
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_disable_splash: {
    type: 'integer',
    description: 'Disable the rainbow splash screen',
    default: 1,
    enum: [0, 1],
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_enable_uart: {
    type: 'integer',
    description: 'Enable the primary UART',
    enum: [0, 1],
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_hdmi_force_hotplug: {
    type: 'integer',
    description: 'Use HDMI even when no monitor is detected',
    enum: [0, 1],
    will_reboot: true,
  },
  BALENA_HOST_CONFIG_avoid_warnings: {
    type: 'integer',
    description: 'Hide under-voltage warnings on screen',
    enum: [0, 1, 2],
    will_reboot: true,
    warning: 'Hiding warnings does not fix an inadequate power supply',
  },
};

// Device types (canonical slugs) that read config.txt.
export const hostConfigCapableDeviceTypes: readonly string[] = [
  'raspberry-pi',
  'raspberry-pi2',
  'raspberrypi0-2w-64',
  'raspberrypi3',
  'raspberrypi3-64',
  'raspberrypi4-64',
  'raspberrypi400-64',
  'raspberrypi5',
  'raspberrypicm4-ioboard',
  'fincm3',
  'revpi-core-3',
  'revpi-connect',
  'revpi-connect-4',
  'npe-x500-m3',
];

export const configVarSchemaFor = (deviceTypeSlug?: string): ConfigVarSchema => ({
  $schema: 'http://json-schema.org/draft-06/schema#',
  type: 'object',
  properties: {
    ...commonConfigVarProperties,
    ...(deviceTypeSlug !== undefined && hostConfigCapableDeviceTypes.includes(deviceTypeSlug)
      ? hostConfigVarProperties
      : {}),
  },
});
