import { readFileSync } from 'node:fs';
import { clientVersion } from '@flotilla/sdk/version';
import { describe, expect, it } from 'vitest';
import { changelogStateOf, latestVersionOf } from './changelog-state.js';

const repositoryFile = (relative: string): string =>
  readFileSync(new URL(`../../../../../${relative}`, import.meta.url), 'utf8');

describe('changelogStateOf', () => {
  it('shows nothing on a first visit or once the version was read', () => {
    expect(changelogStateOf(null, '2.0.0')).toEqual({ autoOpen: false, unread: false });
    expect(changelogStateOf('2.0.0', '2.0.0')).toEqual({ autoOpen: false, unread: false });
  });

  it('marks a newer version unread, and opens by itself for a newer major', () => {
    expect(changelogStateOf('2.0.0', '2.3.1')).toEqual({ autoOpen: false, unread: true });
    expect(changelogStateOf('1.9.9', '2.0.0')).toEqual({ autoOpen: true, unread: true });
    expect(changelogStateOf('garbage', '2.0.0')).toEqual({ autoOpen: true, unread: true });
  });
});

describe("this product's changelog", () => {
  it('names the version the console and the packages carry as its newest', () => {
    const changelog = repositoryFile('CHANGELOG.md');
    const manifest: unknown = JSON.parse(repositoryFile('package.json'));
    expect(latestVersionOf(changelog)).toBe(clientVersion);
    expect(manifest).toMatchObject({ version: clientVersion });
  });
});
