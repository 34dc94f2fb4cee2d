import { describe, expect, it } from 'vitest';
import { type CountedLabels, createAnswerTally } from './answer-tally.js';

const drained = (tally: ReturnType<typeof createAnswerTally>) => {
  const added: [CountedLabels, number][] = [];
  tally.drain((labels, count) => added.push([labels, count]));
  return added;
};

describe('answer tally', () => {
  it('gives each route, method and status one series, the same object every time', () => {
    const tally = createAnswerTally();
    const poll = tally.series('/device/v3/:uuid/state', 'GET', 304);
    expect(tally.series('/device/v3/:uuid/state', 'GET', 304)).toBe(poll);
    expect(poll.labels).toEqual({ route: '/device/v3/:uuid/state', method: 'GET' });
    expect(poll.counted).toEqual({ route: '/device/v3/:uuid/state', method: 'GET', status: '304' });
    for (const other of [
      tally.series('/device/v3/:uuid/state', 'GET', 200),
      tally.series('/device/v3/:uuid/state', 'HEAD', 304),
      tally.series('/ping', 'GET', 304),
    ]) {
      expect(other).not.toBe(poll);
    }
  });

  it('hands over the answers counted since the last drain, each once', () => {
    const tally = createAnswerTally();
    const poll = tally.series('/poll', 'GET', 304);
    const built = tally.series('/poll', 'GET', 200);
    tally.series('/idle', 'GET', 304);
    poll.uncounted += 3;
    built.uncounted += 1;
    expect(drained(tally)).toEqual([
      [{ route: '/poll', method: 'GET', status: '304' }, 3],
      [{ route: '/poll', method: 'GET', status: '200' }, 1],
    ]);
    expect(drained(tally)).toEqual([]);
    poll.uncounted += 2;
    expect(drained(tally)).toEqual([[{ route: '/poll', method: 'GET', status: '304' }, 2]]);
  });
});
