import { describe, expect, it } from 'vitest';
import { applyStaged } from './apply-staged.js';
import {
  changeOf,
  inApplyOrder,
  stage,
  type StagedChange,
  type StagedChanges,
  summarize,
  undo,
} from './staged-edits.js';

type Change = { value: string };
const edit = (
  key: string,
  kind: StagedChange<Change>['kind'],
  value = key,
): StagedChange<Change> => ({
  key,
  kind,
  change: { value },
});

describe('staging edits', () => {
  it('keeps one edit per row, the latest', () => {
    let changes: StagedChanges<Change> = [];
    changes = stage(changes, edit('a', 'updated', 'one'));
    changes = stage(changes, edit('a', 'updated', 'two'));
    expect(changes).toEqual([edit('a', 'updated', 'two')]);
    changes = stage(changes, edit('a', 'deleted'));
    expect(changes).toEqual([edit('a', 'deleted')]);
  });

  it('an added row edited is still an addition; added then deleted is nothing', () => {
    let changes = stage<Change>([], edit('new', 'added', 'one'));
    changes = stage(changes, edit('new', 'updated', 'two'));
    expect(changeOf(changes, 'new')).toEqual(edit('new', 'added', 'two'));
    changes = stage(changes, edit('new', 'deleted'));
    expect(changes).toEqual([]);
  });

  it('undoes one edit and leaves the others', () => {
    const changes = [edit('a', 'added'), edit('b', 'updated'), edit('c', 'deleted')];
    expect(undo(changes, 'b').map((staged) => staged.key)).toEqual(['a', 'c']);
  });

  it('applies deletions first, then updates, then additions, and summarizes', () => {
    const changes = [edit('a', 'added'), edit('b', 'updated'), edit('c', 'deleted')];
    expect(inApplyOrder(changes).map((staged) => staged.kind)).toEqual([
      'deleted',
      'updated',
      'added',
    ]);
    expect(summarize(changes)).toBe('1 added, 1 updated, 1 deleted');
    expect(summarize([edit('a', 'added'), edit('b', 'added')])).toBe('2 added');
  });
});

describe('applying staged edits', () => {
  it('runs at most 10 writes at a time and finishes each kind before the next', async () => {
    const changes = [
      ...Array.from({ length: 12 }, (_, index) => edit(`add${index}`, 'added')),
      ...Array.from({ length: 3 }, (_, index) => edit(`del${index}`, 'deleted')),
    ];
    let inFlight = 0;
    let most = 0;
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const applying = applyStaged(changes, async (staged) => {
      started.push(staged.kind);
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight -= 1;
    });
    // Release the writes one at a time, as they arrive.
    while (started.length < changes.length || inFlight > 0) {
      await Promise.resolve();
      releases.shift()?.();
    }
    const result = await applying;
    expect(result.failed).toEqual([]);
    expect(most).toBe(10);
    expect(started.slice(0, 3)).toEqual(['deleted', 'deleted', 'deleted']);
    expect(started.slice(3).every((kind) => kind === 'added')).toBe(true);
  });

  it('collects the failures with the first error, and writes everything else', async () => {
    const written: string[] = [];
    const result = await applyStaged(
      [edit('a', 'added'), edit('b', 'updated'), edit('c', 'added')],
      async (staged) => {
        if (staged.key !== 'b') {
          written.push(staged.key);
          if (staged.key === 'c') throw new Error('c refused');
          return;
        }
        throw new Error('b refused');
      },
    );
    expect(written).toEqual(['a', 'c']);
    expect(result.failed.map((staged) => staged.key)).toEqual(['b', 'c']);
    expect(result.firstError).toEqual(new Error('b refused'));
  });
});
