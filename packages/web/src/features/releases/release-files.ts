import { shortCommit } from '../../fleet/api-fleet-detail.js';

// Names of the files the release page downloads: the fleet, the release's short commit and what
// the file holds, so that files of several releases can sit side by side.

const fileSafe = (text: string): string => text.replace(/[^\w.-]+/g, '_');

export const dockerfileFileName = (service: string): string => `${fileSafe(service)}.Dockerfile`;

export const compositionFileName = (fleetName: string, commit: string): string =>
  `${fileSafe(fleetName)}_${shortCommit(commit)}_docker-compose.yml`;

// The release's whole build log, or one service's.
export const buildLogFileName = (fleetName: string, commit: string, service?: string): string =>
  `${fileSafe(fleetName)}_${shortCommit(commit)}${service === undefined ? '' : `_${fileSafe(service)}`}_build.log`;
