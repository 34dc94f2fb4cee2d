import { describe, expect, it } from 'vitest';
import { createNotifyRelay, createQueryClient } from './query-client.js';

describe('the query client made before React', () => {
  it('keeps notices raised before the toasts exist and hands them over when they connect', () => {
    const relay = createNotifyRelay();
    relay.notify('error', 'Early failure');
    const shown: string[] = [];
    const disconnect = relay.connect((kind, text) => shown.push(`${kind}: ${text ?? ''}`));
    expect(shown).toEqual(['error: Early failure']);
    relay.notify('error', 'Later failure');
    expect(shown).toEqual(['error: Early failure', 'error: Later failure']);
    disconnect();
    relay.notify('error', 'While away');
    const again: string[] = [];
    relay.connect((_kind, text) => again.push(text ?? ''));
    expect(again).toEqual(['While away']);
    expect(shown).toHaveLength(2);
  });

  it('reports a failed mutation as an error notice unless it shows the error itself', async () => {
    const notices: string[] = [];
    const queryClient = createQueryClient((kind, text) => notices.push(`${kind}: ${text ?? ''}`));
    const fail = (inlineError: boolean) =>
      queryClient
        .getMutationCache()
        .build(queryClient, {
          mutationFn: () => Promise.reject(new Error('Fleet name taken')),
          ...(inlineError ? { meta: { inlineError: true } } : {}),
        })
        .execute(undefined)
        .catch(() => undefined);
    await fail(false);
    await fail(true);
    expect(notices).toEqual(['error: Fleet name taken']);
  });
});
