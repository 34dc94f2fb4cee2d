import { describe, expect, it } from 'vitest';
import { routeEventOf } from './audit-route-records.js';

describe('routeEventOf', () => {
  it('names keys minted, devices registered and device actions; the rest are requests', () => {
    expect(routeEventOf('POST', '/api-key/user/full')).toBe('api_key_created');
    expect(routeEventOf('POST', '/api-key/application/:id/provisioning')).toBe('api_key_created');
    expect(routeEventOf('POST', '/device/register')).toBe('device_registered');
    for (const url of [
      '/supervisor/v1/reboot',
      '/supervisor/v2/applications/:appId/restart-service',
      '/device-actions/v1/run',
      '/actions/v1/:uuid/:action',
      '/v2/:uuid/resinhup',
    ]) {
      expect(routeEventOf('POST', url)).toBe('device_action');
    }
    expect(routeEventOf('POST', '/device-actions/v1/queued/:id/cancel')).toBe('request');
    expect(routeEventOf('POST', '/user/v1/password')).toBe('request');
    expect(routeEventOf('DELETE', '/api-key/x')).toBe('request');
  });
});
