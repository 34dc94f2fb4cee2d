import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../test-support/fake-api.js';
import { deviceDetail } from '../test-support/device-fixtures.js';
import { fetchDevice } from './api.js';

const first = deviceDetail({ id: 1, uuid: `abcdef1${'0'.repeat(25)}`, device_name: 'first' });
const second = deviceDetail({ id: 2, uuid: `abcdef1${'1'.repeat(25)}`, device_name: 'second' });
const third = deviceDetail({ id: 3, uuid: `9876543${'2'.repeat(25)}`, device_name: 'third' });

describe('fetchDevice', () => {
  const { client } = createFakeApi({ device: [first, second, third] });

  it('finds a device by its uuid, or by a short uuid only it starts with', async () => {
    expect((await fetchDevice(client, first.uuid))?.device_name).toBe('first');
    expect((await fetchDevice(client, '9876543'))?.device_name).toBe('third');
    expect(await fetchDevice(client, 'fedcba9')).toBeNull();
  });

  it('says a short uuid is ambiguous when several devices start with it', async () => {
    await expect(fetchDevice(client, 'abcdef1')).rejects.toThrow('Device is ambiguous: abcdef1');
    expect((await fetchDevice(client, 'abcdef11'))?.device_name).toBe('second');
  });
});
