import {
  effectiveReleaseStatus,
  type ReleaseTimes,
} from '@flotilla/shared/releases/release-status';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appWith,
  build,
  endedRelease,
  expectRefused,
  expectStarted,
  held,
  jwtSecret,
  releaseCount,
  releaseOf,
  served,
  setUpWorld,
  tearDownWorld,
  tokens,
  w,
} from '../../test-support/build-from-url-world.js';
import {
  addOrganizationMember,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestContext } from '../../test-support/test-context.js';
import { waitFor } from '../../test-support/wait-for.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import {
  type BuildFromUrlAnswer,
  fetchOptionsOf,
  registerBuildFromUrl,
} from './register-build-from-url.js';
import { createBuildLimit } from './build-limit.js';

// POST /v3/buildFromUrl (balena-sdk's release.createFromUrl): the answer given once the release
// exists, and every refusal known before the build starts (test-support/build-from-url-world.ts).

beforeAll(setUpWorld);
afterAll(tearDownWorld);

describe('POST /v3/buildFromUrl', () => {
  it('answers with the running release at once, then downloads and builds it', async () => {
    const before = held.length;
    const releaseId = await expectStarted(w.allowLoopback, `${w.origin}/held`);
    // The answer came before the tarball: the release exists, running.
    expect(await releaseOf(releaseId)).toEqual({
      status: 'running',
      fleet: w.fleet.id,
      build_log: null,
    });
    // A build that stays running (a server stopped mid-build) times out after 120 minutes.
    const { rows: times } = await w.db.query<ReleaseTimes>(
      `SELECT "status", "start_timestamp"::text, "update_timestamp"::text
         FROM "release" WHERE "id" = $1`,
      [releaseId],
    );
    const [stuck] = times;
    if (!stuck) throw new Error('no release');
    const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
    expect(effectiveReleaseStatus(stuck, later(119))).toBe('running');
    expect(effectiveReleaseStatus(stuck, later(121))).toBe('timeout');
    await waitFor('the held download to arrive', () => held.length > before);
    held[before]?.();
    const release = await endedRelease(releaseId);
    expect(release.status).toBe('success');
    expect(release.build_log?.split('\n')).toEqual([
      `Downloading ${w.origin}/held`,
      expect.stringMatching(/^Downloaded \d+\.\d KiB$/) as unknown,
      '[web] Using image nginx:1.27',
      'Build succeeded',
    ]);
  });

  it('refuses a build that is not headless, creating nothing', async () => {
    const before = await releaseCount();
    const response = await w.allowLoopback.inject({
      method: 'POST',
      url: '/v3/buildFromUrl?headless=false&owner=acme&app=From-URL',
      headers: { authorization: `Bearer ${tokens.get('owner') ?? ''}` },
      payload: { url: `${w.origin}/project.tar.gz` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/headless builds only/);
    expect(await releaseCount()).toBe(before);
  });

  it('refuses loopback, private, link-local, unspecified and multicast hosts by default', async () => {
    const before = served.length;
    const refusal = /only from public addresses.*FLOTILLA_BUILDER_ALLOWED_NETWORKS/;
    await expectRefused(
      w.guarded,
      `${w.origin}/project.tar.gz`,
      /127\.0\.0\.1 is a loopback address/,
    );
    await expectRefused(w.guarded, 'http://10.0.0.7/p.tar.gz', /10\.0\.0\.7 is a private address/);
    await expectRefused(w.guarded, 'http://169.254.169.254/latest', /is a link-local address/);
    await expectRefused(w.guarded, `http://[::1]:${w.port}/project.tar.gz`, /::1 is a loopback/);
    await expectRefused(w.guarded, 'http://[::ffff:127.0.0.1]/', /is a loopback address/);
    await expectRefused(w.guarded, 'http://0.0.0.0/', /is an? \S+ address|unspecified/);
    await expectRefused(w.guarded, 'http://224.0.0.1/', /multicast/);
    await expectRefused(w.guarded, 'http://2130706433/', refusal);
    await expectRefused(w.guarded, 'http://localhost/', refusal);
    expect(served.length).toBe(before);
  });

  it('refuses other schemes and text that is not a URL', async () => {
    await expectRefused(w.guarded, 'file:///etc/passwd', /http or https/);
    await expectRefused(w.guarded, 'ftp://example.com/p.tar.gz', /http or https/);
    await expectRefused(w.guarded, 'not a url', /http or https/);
  });

  it('counts URL builds per user per hour and refuses more with 429, before downloading', async () => {
    const limited = await appWith(
      (app, ctx) =>
        registerBuildFromUrl(app, ctx, fetchOptionsOf(ctx), createBuildLimit(ctx, 'url', 2)),
      ['127.0.0.1/32'],
    );
    for (const name of ['limited', 'unlimited']) {
      const user = await createUser(w.db, name);
      await addOrganizationMember(w.db, user.userId, w.organization, 'administrator');
      const ctx = createTestContext(w.db, { jwtSecret });
      tokens.set(name, await issueSessionToken(ctx, w.db, user.userId));
    }
    for (const path of ['/missing', '/project.tar.gz']) {
      const counted = await build(limited, `${w.origin}${path}`, 'limited');
      expect(counted.statusCode, counted.body).toBe(200);
      // Counted, not failed: its download goes on (and ends) after the answer.
      await endedRelease(counted.json<BuildFromUrlAnswer>().releaseId);
    }
    const before = served.length;
    const refused = await build(limited, `${w.origin}/project.tar.gz`, 'limited');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(served.length).toBe(before);
    // Another user's builds are counted apart.
    const other = await build(limited, `${w.origin}/project.tar.gz`, 'unlimited');
    expect(other.statusCode, other.body).toBe(200);
    await endedRelease(other.json<BuildFromUrlAnswer>().releaseId);
  });

  it('downloads nothing for a caller who may not create releases, or for an unknown fleet', async () => {
    const before = served.length;
    const releases = await releaseCount();
    const observer = await build(w.allowLoopback, `${w.origin}/project.tar.gz`, 'observer');
    expect(observer.statusCode).toBe(401);
    const unknown = await build(w.allowLoopback, `${w.origin}/project.tar.gz`, 'owner', 'nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toMatch(/^Fleet acme\/nothing not found$/);
    expect(served.length).toBe(before);
    expect(await releaseCount()).toBe(releases);
  });

  it('answers a fleet the caller cannot see exactly as an unknown one', async () => {
    const stranger = await createUser(w.db, 'stranger');
    const elsewhere = await createOrganization(w.db, 'elsewhere');
    await addOrganizationMember(w.db, stranger.userId, elsewhere, 'administrator');
    const ctx = createTestContext(w.db, { jwtSecret });
    tokens.set('stranger', await issueSessionToken(ctx, w.db, stranger.userId));
    const before = served.length;
    const hidden = await build(w.allowLoopback, `${w.origin}/project.tar.gz`, 'stranger');
    const unknown = await build(
      w.allowLoopback,
      `${w.origin}/project.tar.gz`,
      'stranger',
      'Nowhere',
    );
    expect(hidden.statusCode).toBe(404);
    expect(hidden.statusCode).toBe(unknown.statusCode);
    expect(hidden.body).toBe(unknown.body.replace('acme/Nowhere', 'acme/From-URL'));
    expect(served.length).toBe(before);
  });
});
