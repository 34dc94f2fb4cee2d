// @vitest-environment jsdom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientProvider } from '../../api/client.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { maxReportsPerPage, useErrorReporting } from './api-reporter.js';

afterEach(cleanup);

const Reporter = () => {
  useErrorReporting();
  return null;
};

const raise = (error: unknown): void => {
  window.dispatchEvent(new ErrorEvent('error', { error, message: String(error) }));
};

describe('console error reporting', { timeout: 30_000 }, () => {
  it('posts each distinct unhandled error once, with the release, at most a page-load limit', async () => {
    const api = createFakeApi({}, { userId: 7 });
    const posted: unknown[] = [];
    api.on('POST', '/error-reports/v1', (body) => {
      posted.push(body);
      return { status: 204 };
    });
    window.history.pushState({}, '', '/fleets/12?token=secret#x');
    render(
      <ClientProvider client={api.client}>
        <Reporter />
      </ClientProvider>,
    );
    const failure = Object.assign(new TypeError('x is undefined'), { requestId: 'req-3' });
    raise(failure);
    raise(failure);
    window.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), { reason: new Error('rejected') }),
    );
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[0]).toMatchObject({
      name: 'TypeError',
      message: 'x is undefined',
      location: '/fleets/12',
      requestId: 'req-3',
      release: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    expect(JSON.stringify(posted)).not.toContain('secret');
    for (let index = 0; index < maxReportsPerPage * 2; index += 1) raise(new Error(`e${index}`));
    // A request sent after the flood goes the same way: once it is answered, every report the
    // flood sent has arrived.
    api.on('GET', '/sentinel', () => ({ status: 200, body: {} }));
    await api.client.request({ path: '/sentinel' });
    expect(posted).toHaveLength(maxReportsPerPage);
  });
});
