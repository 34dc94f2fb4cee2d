import { describe, expect, it } from 'vitest';
import {
  containerStatusColor,
  containerStatusHint,
  containerStatusText,
  lastSeenText,
  metricColor,
  percentOf,
  supportAccessText,
} from '../../device/device-format.js';
import { parseTagFilter } from '../../device/api.js';
import { parseListParams } from './useDeviceListParams.js';

describe('device formatting', () => {
  it('colours metrics by the seed thresholds', () => {
    expect(metricColor(0)).toBe('success');
    expect(metricColor(60)).toBe('success');
    expect(metricColor(61)).toBe('warning');
    expect(metricColor(80)).toBe('warning');
    expect(metricColor(81)).toBe('error');
    expect(percentOf(900, 1000)).toBe(90);
    expect(percentOf(null, 1000)).toBeNull();
    expect(percentOf(5, 0)).toBeNull();
  });

  it('colours container statuses: running and idle green, unhealthy orange, stopped red, others blue', () => {
    expect(containerStatusColor('Running')).toBe('success');
    expect(containerStatusColor('Unhealthy')).toBe('warning');
    expect(containerStatusHint('Unhealthy')).toMatch(/health check fails/);
    expect(containerStatusHint('Running')).toBeNull();
    expect(containerStatusColor('Idle')).toBe('success');
    expect(containerStatusColor('Stopped')).toBe('error');
    expect(containerStatusColor('exited')).toBe('info');
    expect(containerStatusColor('Downloading')).toBe('info');
    expect(containerStatusText('Downloading', 42)).toBe('Downloading (42%)');
    expect(containerStatusText('Running', 100)).toBe('Running');
  });

  it('says when a device was last seen', () => {
    const now = Date.parse('2024-05-01T12:00:00.000Z');
    expect(
      lastSeenText({ is_online: true, last_connectivity_event: '2024-05-01T09:00:00.000Z' }, now),
    ).toBe('Online (for 3 hours)');
    expect(
      lastSeenText({ is_online: false, last_connectivity_event: '2024-05-01T11:55:00.000Z' }, now),
    ).toBe('5 minutes ago');
    expect(lastSeenText({ is_online: false, last_connectivity_event: null }, now)).toBe('Never');
  });

  it('describes support access', () => {
    const now = Date.parse('2024-05-01T12:00:00.000Z');
    expect(supportAccessText(null, now)).toBe('Off');
    expect(supportAccessText('2024-05-06T12:00:00.000Z', now)).toMatch(/^Expires on /);
    expect(supportAccessText('2024-04-06T12:00:00.000Z', now)).toMatch(/^Expired on /);
  });
});

describe('parseListParams', () => {
  it('reads the table state from the URL with safe defaults', () => {
    expect(parseListParams(new URLSearchParams(''))).toEqual({
      search: '',
      tag: '',
      tagColumns: '',
      view: 'table',
      status: '',
      sort: 'device_name',
      direction: 'asc',
      page: 0,
      pageSize: 50,
    });
    expect(
      parseListParams(
        new URLSearchParams(
          'search=pi&status=disconnected&sort=os_version&dir=desc&page=3&size=25&tag=site%3Dnorth&tagcols=site,rack',
        ),
      ),
    ).toEqual({
      search: 'pi',
      tag: 'site=north',
      tagColumns: 'site,rack',
      view: 'table',
      status: 'disconnected',
      sort: 'os_version',
      direction: 'desc',
      page: 2,
      pageSize: 25,
    });
    expect(
      parseListParams(new URLSearchParams('status=bogus&sort=api_key&page=-4&size=7')),
    ).toMatchObject({ status: '', sort: 'device_name', page: 0, pageSize: 50 });
  });
});

describe('parseTagFilter', () => {
  it('takes "key" or "key=value" apart', () => {
    expect(parseTagFilter(' site ')).toEqual({ key: 'site' });
    expect(parseTagFilter('site = north')).toEqual({ key: 'site', value: 'north' });
    expect(parseTagFilter('note=a=b')).toEqual({ key: 'note', value: 'a=b' });
    expect(parseTagFilter('  ')).toBeNull();
  });
});
