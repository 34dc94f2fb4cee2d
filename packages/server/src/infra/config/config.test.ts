import { describe, expect, it } from 'vitest';
import { defaultRecaptchaVerifyUrl, loadConfig } from './config.js';

describe('loadConfig: identity settings', () => {
  it('defaults to the documented limits, no trusted proxy and no captcha provider', () => {
    expect(loadConfig({})).toMatchObject({
      loginRateLimitPerMinute: 10,
      loginAccountRateLimitPerMinute: 100,
      loginAddressRateLimitPerMinute: 30,
      signupRateLimitPerHour: 20,
      trustProxy: false,
      recaptcha: undefined,
    });
  });

  it('reads FLOTILLA_BUILDER_ALLOWED_NETWORKS as addresses and CIDR ranges, none by default', () => {
    const allowed = (value: string) =>
      loadConfig({ FLOTILLA_BUILDER_ALLOWED_NETWORKS: value }).builderAllowedNetworks;
    expect(loadConfig({}).builderAllowedNetworks).toEqual([]);
    expect(allowed(' 10.0.0.0/8, 127.0.0.1 ,fd00::/8')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
    ]);
    expect(() => allowed('10.0.0.0/8,intranet')).toThrow(
      /FLOTILLA_BUILDER_ALLOWED_NETWORKS: must be a comma-separated list/,
    );
  });

  it('reads FLOTILLA_BUILDER_DOCKER_HOST as a unix socket or tcp host and port, none by default', () => {
    const engine = (value: string) =>
      loadConfig({ FLOTILLA_BUILDER_DOCKER_HOST: value }).builderDockerHost;
    expect(loadConfig({}).builderDockerHost).toBeUndefined();
    expect(engine('')).toBeUndefined();
    expect(engine('unix:///var/run/docker.sock')).toEqual({ socketPath: '/var/run/docker.sock' });
    expect(engine('tcp://builder.internal:2375')).toEqual({ host: 'builder.internal', port: 2375 });
    for (const wrong of [
      '/var/run/docker.sock',
      'unix://relative.sock',
      'tcp://builder.internal',
      'tcp://builder.internal:0',
      'tcp://builder.internal:65536',
      'http://builder.internal:2375',
      'ssh://builder.internal',
    ]) {
      expect(() => engine(wrong), wrong).toThrow(
        /FLOTILLA_BUILDER_DOCKER_HOST: must be unix:\/\/\/path/,
      );
    }
  });

  it('builds for other CPU architectures through emulation unless FLOTILLA_BUILDER_EMULATION is off', () => {
    expect(loadConfig({}).builderEmulation).toBe(true);
    expect(loadConfig({ FLOTILLA_BUILDER_EMULATION: 'off' }).builderEmulation).toBe(false);
    expect(() => loadConfig({ FLOTILLA_BUILDER_EMULATION: 'on' })).toThrow(
      /FLOTILLA_BUILDER_EMULATION/,
    );
  });

  it('gives builds the network unless FLOTILLA_BUILDER_NETWORK is off', () => {
    expect(loadConfig({}).builderNetwork).toBe(true);
    expect(loadConfig({ FLOTILLA_BUILDER_NETWORK: 'off' }).builderNetwork).toBe(false);
    expect(() => loadConfig({ FLOTILLA_BUILDER_NETWORK: 'none' })).toThrow(
      /FLOTILLA_BUILDER_NETWORK/,
    );
  });

  it('runs one build at a time for at most 30 minutes, images up to 8 GiB, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({
      builderParallel: 1,
      builderTimeoutMs: 30 * 60_000,
      builderMaxImageBytes: 8 * 1024 ** 3,
    });
    expect(
      loadConfig({
        FLOTILLA_BUILDER_PARALLEL: '3',
        FLOTILLA_BUILDER_TIMEOUT_MINUTES: '90',
        FLOTILLA_BUILDER_MAX_IMAGE_MB: '512',
      }),
    ).toMatchObject({
      builderParallel: 3,
      builderTimeoutMs: 90 * 60_000,
      builderMaxImageBytes: 512 * 1024 ** 2,
    });
    for (const [name, value] of [
      ['FLOTILLA_BUILDER_PARALLEL', '0'],
      ['FLOTILLA_BUILDER_PARALLEL', '65'],
      ['FLOTILLA_BUILDER_TIMEOUT_MINUTES', '0'],
      ['FLOTILLA_BUILDER_TIMEOUT_MINUTES', '121'],
      ['FLOTILLA_BUILDER_TIMEOUT_MINUTES', 'soon'],
      ['FLOTILLA_BUILDER_MAX_IMAGE_MB', '0'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
  });

  it('reads FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS as addresses and CIDR ranges, none by default', () => {
    const allowed = (value: string) =>
      loadConfig({ FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS: value }).cliLoginAllowedNetworks;
    expect(loadConfig({}).cliLoginAllowedNetworks).toEqual([]);
    expect(allowed(' 203.0.113.0/24, 198.51.100.7 ,2001:db8::/32')).toEqual([
      '203.0.113.0/24',
      '198.51.100.7',
      '2001:db8::/32',
    ]);
    for (const wrong of ['10.0.0.0/8,intranet', '10.0.0.0/33', '::/129', 'fe80::1%eth0']) {
      expect(() => allowed(wrong)).toThrow(
        /FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS: must be a comma-separated list/,
      );
    }
  });

  it('reads FLOTILLA_TRUST_PROXY as off, a hop count or proxy addresses', () => {
    const trust = (value: string) => loadConfig({ FLOTILLA_TRUST_PROXY: value }).trustProxy;
    expect(trust('off')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('10.0.0.0/8, 127.0.0.1,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
    ]);
    for (const refused of ['on', 'true', '11', '10.0.0.0/8,nonsense']) {
      expect(() => trust(refused), refused).toThrow(/FLOTILLA_TRUST_PROXY: must be off/);
    }
  });

  it('enables reCAPTCHA with a site key and a secret, never with only one', () => {
    expect(
      loadConfig({ FLOTILLA_RECAPTCHA_SITE_KEY: 'site', FLOTILLA_RECAPTCHA_SECRET: 'secret' })
        .recaptcha,
    ).toEqual({ siteKey: 'site', secret: 'secret', verifyUrl: defaultRecaptchaVerifyUrl });
    expect(() => loadConfig({ FLOTILLA_RECAPTCHA_SITE_KEY: 'site' })).toThrow(
      /set both FLOTILLA_RECAPTCHA_SITE_KEY and FLOTILLA_RECAPTCHA_SECRET, or neither/,
    );
    expect(
      loadConfig({ FLOTILLA_RECAPTCHA_SITE_KEY: '', FLOTILLA_RECAPTCHA_SECRET: '' }).recaptcha,
    ).toBeUndefined();
  });

  it('refuses limits below 1', () => {
    expect(() => loadConfig({ FLOTILLA_SIGNUP_RATE_LIMIT: '0' })).toThrow(
      /FLOTILLA_SIGNUP_RATE_LIMIT/,
    );
  });
});

describe('loadConfig: FLOTILLA_AUTH_CACHE_SECONDS', () => {
  it('defaults to 10 seconds, accepts 0 (off) to 300, refuses the rest', () => {
    expect(loadConfig({}).authCacheSeconds).toBe(10);
    expect(loadConfig({ FLOTILLA_AUTH_CACHE_SECONDS: '0' }).authCacheSeconds).toBe(0);
    expect(loadConfig({ FLOTILLA_AUTH_CACHE_SECONDS: '300' }).authCacheSeconds).toBe(300);
    for (const refused of ['-1', '301', '1.5', 'soon']) {
      expect(() => loadConfig({ FLOTILLA_AUTH_CACHE_SECONDS: refused }), refused).toThrow(
        /FLOTILLA_AUTH_CACHE_SECONDS/,
      );
    }
  });
});

describe('loadConfig: FLOTILLA_DEVICE_AUTH_CACHE_SECONDS', () => {
  it('defaults to 30 minutes, accepts 0 (off) to an hour, refuses the rest', () => {
    expect(loadConfig({}).deviceAuthCacheSeconds).toBe(1800);
    expect(loadConfig({ FLOTILLA_DEVICE_AUTH_CACHE_SECONDS: '0' }).deviceAuthCacheSeconds).toBe(0);
    expect(loadConfig({ FLOTILLA_DEVICE_AUTH_CACHE_SECONDS: '3600' }).deviceAuthCacheSeconds).toBe(
      3600,
    );
    for (const refused of ['-1', '3601', '2.5', 'long']) {
      expect(() => loadConfig({ FLOTILLA_DEVICE_AUTH_CACHE_SECONDS: refused }), refused).toThrow(
        /FLOTILLA_DEVICE_AUTH_CACHE_SECONDS/,
      );
    }
  });
});

describe('loadConfig: device protocol settings', () => {
  it('keeps 24 hours of metric history unless FLOTILLA_METRICS_RETENTION_HOURS says otherwise', () => {
    expect(loadConfig({}).metricsRetentionHours).toBe(24);
    expect(loadConfig({ FLOTILLA_METRICS_RETENTION_HOURS: '720' }).metricsRetentionHours).toBe(720);
    for (const refused of ['0', '721', '1.5', 'a day']) {
      expect(() => loadConfig({ FLOTILLA_METRICS_RETENTION_HOURS: refused }), refused).toThrow(
        /FLOTILLA_METRICS_RETENTION_HOURS/,
      );
    }
  });

  it('checks the notification connection every 5 s unless FLOTILLA_NOTIFICATION_HEARTBEAT_MS says otherwise', () => {
    expect(loadConfig({}).notificationHeartbeatMs).toBe(5000);
    expect(loadConfig({ FLOTILLA_NOTIFICATION_HEARTBEAT_MS: '100' }).notificationHeartbeatMs).toBe(
      100,
    );
    expect(
      loadConfig({ FLOTILLA_NOTIFICATION_HEARTBEAT_MS: '60000' }).notificationHeartbeatMs,
    ).toBe(60_000);
    for (const refused of ['99', '60001', '1.5', 'often']) {
      expect(() => loadConfig({ FLOTILLA_NOTIFICATION_HEARTBEAT_MS: refused }), refused).toThrow(
        /FLOTILLA_NOTIFICATION_HEARTBEAT_MS/,
      );
    }
  });

  it('flushes device contacts every second unless FLOTILLA_CONTACT_FLUSH_INTERVAL_MS says otherwise', () => {
    expect(loadConfig({}).contactFlushIntervalMs).toBe(1000);
    expect(loadConfig({ FLOTILLA_CONTACT_FLUSH_INTERVAL_MS: '250' }).contactFlushIntervalMs).toBe(
      250,
    );
    for (const refused of ['0', '10', '60000', 'soon']) {
      expect(() => loadConfig({ FLOTILLA_CONTACT_FLUSH_INTERVAL_MS: refused }), refused).toThrow(
        /FLOTILLA_CONTACT_FLUSH_INTERVAL_MS/,
      );
    }
  });
});

describe('loadConfig: FLOTILLA_ODATA_CACHE and FLOTILLA_ODATA_CACHE_SIZE', () => {
  it('keeps 500 compiled shapes by default, can be switched off, refuses other values', () => {
    expect(loadConfig({}).odataCache).toEqual({ enabled: true, size: 500 });
    expect(
      loadConfig({ FLOTILLA_ODATA_CACHE: 'off', FLOTILLA_ODATA_CACHE_SIZE: '20' }).odataCache,
    ).toEqual({ enabled: false, size: 20 });
    expect(() => loadConfig({ FLOTILLA_ODATA_CACHE: 'yes' })).toThrow(/FLOTILLA_ODATA_CACHE/);
    for (const refused of ['0', '100001', '2.5', 'many']) {
      expect(() => loadConfig({ FLOTILLA_ODATA_CACHE_SIZE: refused }), refused).toThrow(
        /FLOTILLA_ODATA_CACHE_SIZE/,
      );
    }
  });
});

describe('loadConfig: FLOTILLA_DEVICE_URLS_BASE', () => {
  it('is unset by default (localhost on the port listened on: deviceUrlsBaseOf)', () => {
    expect(loadConfig({}).deviceUrlsBase).toBeUndefined();
    expect(loadConfig({ FLOTILLA_DEVICE_URLS_BASE: '' }).deviceUrlsBase).toBeUndefined();
    expect(loadConfig({ FLOTILLA_DEVICE_URLS_BASE: 'devices.example.com' }).deviceUrlsBase).toBe(
      'devices.example.com',
    );
    for (const refused of ['https://devices.example.com', 'a b', 'x/y']) {
      expect(() => loadConfig({ FLOTILLA_DEVICE_URLS_BASE: refused }), refused).toThrow(
        /FLOTILLA_DEVICE_URLS_BASE/,
      );
    }
  });
});

describe('loadConfig: FLOTILLA_AVATAR_URL', () => {
  it('is off by default; set, an http(s) URL template with {hash}', () => {
    expect(loadConfig({}).avatarUrl).toBeNull();
    expect(loadConfig({ FLOTILLA_AVATAR_URL: '' }).avatarUrl).toBeNull();
    const template = 'https://avatars.example.com/avatar/{hash}?d=404&s=64';
    expect(loadConfig({ FLOTILLA_AVATAR_URL: template }).avatarUrl).toBe(template);
    for (const refused of [
      'https://avatars.example.com/avatar',
      'ftp://x.example/{hash}',
      '{hash}',
    ]) {
      expect(() => loadConfig({ FLOTILLA_AVATAR_URL: refused }), refused).toThrow(
        /FLOTILLA_AVATAR_URL/,
      );
    }
  });
});

describe('loadConfig: account mail settings', () => {
  it('limits password reset requests per address and per e-mail address', () => {
    expect(loadConfig({})).toMatchObject({
      passwordResetRateLimitPerHour: 10,
      passwordResetAccountRateLimitPerHour: 5,
    });
    expect(() => loadConfig({ FLOTILLA_PASSWORD_RESET_RATE_LIMIT: '0' })).toThrow(
      /FLOTILLA_PASSWORD_RESET_RATE_LIMIT/,
    );
  });

  it('requires e-mail verification by default only when SMTP is configured', () => {
    expect(loadConfig({}).requireEmailVerification).toBe(false);
    expect(loadConfig({ FLOTILLA_SMTP_URL: 'smtp://mail.example.com:587' })).toMatchObject({
      requireEmailVerification: true,
    });
    expect(
      loadConfig({
        FLOTILLA_SMTP_URL: 'smtp://mail.example.com:587',
        FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'off',
      }).requireEmailVerification,
    ).toBe(false);
    expect(loadConfig({ FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'on' }).requireEmailVerification).toBe(
      true,
    );
    expect(() => loadConfig({ FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'yes' })).toThrow(
      /FLOTILLA_REQUIRE_EMAIL_VERIFICATION/,
    );
  });
});

describe('loadConfig: mail relay and outbox settings', () => {
  it('limits invitations and e-mail changes per user per hour, refusing 0 and non-numbers', () => {
    expect(loadConfig({})).toMatchObject({
      invitationRateLimitPerHour: 30,
      emailChangeRateLimitPerHour: 5,
    });
    expect(
      loadConfig({ FLOTILLA_INVITATION_RATE_LIMIT: '2', FLOTILLA_EMAIL_CHANGE_RATE_LIMIT: '1' }),
    ).toMatchObject({ invitationRateLimitPerHour: 2, emailChangeRateLimitPerHour: 1 });
    for (const name of ['FLOTILLA_INVITATION_RATE_LIMIT', 'FLOTILLA_EMAIL_CHANGE_RATE_LIMIT']) {
      for (const value of ['0', '1000001', 'many']) {
        expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
      }
    }
  });

  it('leaves sign-up open by default; invitation and closed restrict it; nothing else', () => {
    expect(loadConfig({}).signup).toBe('open');
    // A self-hosted server neither bills nor sends a newsletter unless told to.
    expect(loadConfig({})).toMatchObject({ billingEnabled: false, newsletterEnabled: false });
    expect(loadConfig({ FLOTILLA_BILLING: 'on', FLOTILLA_NEWSLETTER: 'on' })).toMatchObject({
      billingEnabled: true,
      newsletterEnabled: true,
    });
    expect(loadConfig({ FLOTILLA_SIGNUP: 'invitation' }).signup).toBe('invitation');
    expect(loadConfig({ FLOTILLA_SIGNUP: 'closed' }).signup).toBe('closed');
    expect(() => loadConfig({ FLOTILLA_SIGNUP: 'off' })).toThrow(/FLOTILLA_SIGNUP/);
  });

  it('keeps outbox messages a week by default, from an hour to a year', () => {
    expect(loadConfig({}).mailOutboxRetentionHours).toBe(168);
    expect(loadConfig({ FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS: '1' }).mailOutboxRetentionHours).toBe(
      1,
    );
    expect(
      loadConfig({ FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS: '8760' }).mailOutboxRetentionHours,
    ).toBe(8760);
    for (const value of ['0', '8761', '1.5']) {
      expect(() => loadConfig({ FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS: value })).toThrow(
        /FLOTILLA_MAIL_OUTBOX_RETENTION_HOURS/,
      );
    }
  });
});

describe('loadConfig: the registry', () => {
  it('names registry tokens "flotilla" unless FLOTILLA_REGISTRY_TOKEN_ISSUER says otherwise', () => {
    expect(loadConfig({}).registryTokenIssuer).toBe('flotilla');
    expect(loadConfig({ FLOTILLA_REGISTRY_TOKEN_ISSUER: '' }).registryTokenIssuer).toBe('flotilla');
    expect(
      loadConfig({ FLOTILLA_REGISTRY_TOKEN_ISSUER: 'fleet.example.com' }).registryTokenIssuer,
    ).toBe('fleet.example.com');
    expect(() => loadConfig({ FLOTILLA_REGISTRY_TOKEN_ISSUER: 'x'.repeat(201) })).toThrow(
      /FLOTILLA_REGISTRY_TOKEN_ISSUER/,
    );
  });

  it('takes the registry host, with its port, from FLOTILLA_REGISTRY_URL', () => {
    expect(loadConfig({}).registry).toBeUndefined();
    expect(
      loadConfig({ FLOTILLA_REGISTRY_URL: 'https://registry.example.com:5000/' }).registry,
    ).toEqual({
      url: 'https://registry.example.com:5000',
      host: 'registry.example.com:5000',
    });
  });
});
