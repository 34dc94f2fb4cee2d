import { describe, expect, it } from 'vitest';
import { publicDeviceUrl } from './device-url.js';

describe('publicDeviceUrl', () => {
  it('uses the console’s scheme', () => {
    expect(publicDeviceUrl('abc', 'localhost:8080', 'http:')).toBe('http://abc.localhost:8080/');
    expect(publicDeviceUrl('abc', 'devices.example.com', 'https:')).toBe(
      'https://abc.devices.example.com/',
    );
  });
});
