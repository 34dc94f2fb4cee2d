import type { Database } from '../db/database.js';
import type { NotificationBus } from '../db/notification-bus.js';
import type { ActorCache } from './actor-cache.js';

// Names used by the triggers of migrations/0007-auth-cache-invalidation.sql.
export const authChannel = 'flotilla_auth';
export const authNoticeMessage = 'flotilla_auth_changed';

const subjectPattern = /^(?:user|actor):\d+$/;

// The subjects a payload names; anything unexpected counts as everything ('*').
export const subjectsOf = (payload: string): string[] => {
  const subjects = payload.split(',');
  return subjects.every((subject) => subject === '*' || subjectPattern.test(subject))
    ? subjects
    : ['*'];
};

export type AppliedInvalidation = {
  subjects: readonly string[];
  // 'notice': a change made by this process (heard before its statement returned);
  // 'notification': a change committed by any process, this one included (heard after commit).
  source: 'notice' | 'notification';
};

export type ActorCacheFeed = {
  // Called after each invalidation is applied: lets tests wait for another process's change.
  onApplied(listener: (applied: AppliedInvalidation) => void): () => void;
  close(): void;
};

// Keeps an actor cache true to the database: every change the triggers report, from any process,
// drops the entries depending on it, and the cache is only used while its channel is live on the
// bus (emptied when the connection is lost, and again when the channel is listened to anew).
export const feedActorCache = (
  cache: ActorCache,
  bus: Pick<NotificationBus, 'listen'>,
  db: Pick<Database, 'onNotice'>,
): ActorCacheFeed => {
  const listeners = new Set<(applied: AppliedInvalidation) => void>();
  const apply = (payload: string, source: AppliedInvalidation['source']): void => {
    const subjects = subjectsOf(payload);
    cache.invalidate(subjects);
    for (const listener of [...listeners]) listener({ subjects, source });
  };
  const subscription = bus.listen(
    authChannel,
    (payload) => apply(payload, 'notification'),
    () => cache.setLive(subscription.live()),
  );
  const stopNotices = db.onNotice((notice) => {
    if (notice.message === authNoticeMessage) apply(notice.detail ?? '*', 'notice');
  });
  cache.setLive(subscription.live());
  return {
    onApplied(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      subscription.close();
      stopNotices();
      cache.setLive(false);
      listeners.clear();
    },
  };
};
