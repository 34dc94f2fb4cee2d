import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  sessionCapabilities,
  sessionCapabilityLabels,
  sessionKindLabels,
  sessionKinds,
  sessionMay,
} from '@flotilla/shared/auth/session-kinds';
import type { Actor } from './actor.js';
import { sessionKindOf } from './session-rules.js';

// The table is in docs/ACCOUNTS.md, which the README links to.
const readme = readFileSync(new URL('../../../../../docs/ACCOUNTS.md', import.meta.url), 'utf8');

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());

// The documented "Session kinds" table: its heading row and its rows, as cells.
const readmeTable = (): string[][] => {
  const start = readme.indexOf('### Session kinds');
  expect(start).toBeGreaterThan(-1);
  const lines = readme.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(cellsOf(line));
  }
  return rows.filter((row) => !row.every((cell) => /^:?-+:?$/.test(cell)));
};

// The code's table in the documentation's words.
const codeTable = (): string[][] => [
  ['Session kind', ...sessionCapabilities.map((capability) => sessionCapabilityLabels[capability])],
  ...sessionKinds.map((kind) => [
    sessionKindLabels[kind],
    ...sessionCapabilities.map((capability) => (sessionMay(kind, capability) ? 'yes' : 'no')),
  ]),
];

describe('session kinds', () => {
  it("the documented table says what the code's does", () => {
    expect(readmeTable()).toEqual(codeTable());
  });

  it('only a password session counts as fresh or changes the password, e-mail or account', () => {
    for (const capability of [
      'fresh-authentication',
      'manage-two-factor',
      'change-password',
      'change-email',
      'delete-account',
      'authorize-oauth-apps',
      'log-in-as',
    ] as const) {
      expect(sessionKinds.filter((kind) => sessionMay(kind, capability))).toEqual([
        'password-session',
      ]);
    }
  });

  it('OAuth tokens and login-as sessions may only refresh', () => {
    for (const kind of ['oauth-token', 'login-as'] as const) {
      expect(sessionCapabilities.filter((capability) => sessionMay(kind, capability))).toEqual([
        'refresh',
      ]);
    }
  });
});

describe('the kind of an actor', () => {
  const user = {
    kind: 'user',
    userId: 2,
    actorId: 20,
    platformPermissions: [],
    via: 'session',
    twoFactorPending: false,
    emailVerificationPending: false,
  } as const;
  it.each<[Actor, string | undefined]>([
    [{ kind: 'anonymous' }, undefined],
    [user, 'password-session'],
    [{ ...user, twoFactorPending: true }, 'two-factor-pending'],
    [{ ...user, oauthAuthorizationId: 5 }, 'oauth-token'],
    [{ ...user, actualUserId: 1 }, 'login-as'],
    [{ ...user, via: 'api-key' }, 'user-api-key'],
    [{ kind: 'device', deviceId: 1, actorId: 3, applicationId: 4 }, 'device-key'],
    [{ kind: 'application', applicationId: 4, actorId: 5 }, 'provisioning-key'],
  ])('%o is %s', (actor, kind) => {
    expect(sessionKindOf(actor)).toBe(kind);
  });
});
