import type pg from 'pg';

// The notifications of triggers recorded instead of NOTIFYed (migrations/0093-bus-notifications.sql)
// while the process's bus is NATS: a connection with the session setting flotilla.bus = 'nats'
// gets them as NOTICEs 'flotilla_bus' (DETAIL: channel, HINT: payload) during its statements;
// they are kept per connection and handed to the sinks once the statement or transaction that
// recorded them has committed, and forgotten when it did not. Identical ones of one transaction
// fold into one, as PostgreSQL folds NOTIFYs.

export type RecordedNotification = { channel: string; payload: string };
export type NotificationSink = (notifications: readonly RecordedNotification[]) => void;

export const busNoticeMessage = 'flotilla_bus';

type Mode = 'nats' | 'postgres';

export type NotificationRecorder = {
  // Whether connections record now (some sink wants them).
  recording(): boolean;
  // Adds a sink; connections record from their next use while there is one.
  add(sink: NotificationSink): () => void;
  // Gives a checked-out connection the session setting of the current mode: a statement only
  // when its mode changes (undefined otherwise, so nothing at all while no sink was ever added).
  settingFor(client: pg.ClientBase): Promise<void> | undefined;
  // Collects what the connection records from now on.
  begin(client: pg.ClientBase): void;
  // A notice of the connection: true when it was a recorded notification (taken here).
  heard(
    client: pg.ClientBase,
    notice: { message?: string; detail?: string; hint?: string },
  ): boolean;
  // Ends the collection: the notifications go to the sinks when the work committed.
  finish(client: pg.ClientBase, committed: boolean): void;
};

export const createNotificationRecorder = (
  onSinkError: (error: unknown) => void,
): NotificationRecorder => {
  const sinks = new Set<NotificationSink>();
  const modes = new WeakMap<pg.ClientBase, Mode>();
  const collecting = new WeakMap<pg.ClientBase, Map<string, RecordedNotification>>();
  // Until a sink is added, every connection has PostgreSQL's default: nothing to look up.
  let everRecorded = false;

  const hand = (notifications: readonly RecordedNotification[]): void => {
    for (const sink of [...sinks]) {
      try {
        sink(notifications);
      } catch (error) {
        onSinkError(error);
      }
    }
  };

  return {
    recording: () => sinks.size > 0,
    add(sink) {
      everRecorded = true;
      sinks.add(sink);
      return () => {
        sinks.delete(sink);
      };
    },
    settingFor(client) {
      if (!everRecorded) return undefined;
      const wanted: Mode = sinks.size > 0 ? 'nats' : 'postgres';
      if ((modes.get(client) ?? 'postgres') === wanted) return undefined;
      // Notices must reach us whatever the connection string set.
      const sql =
        wanted === 'nats'
          ? `SET flotilla.bus = 'nats'; SET client_min_messages = notice`
          : 'RESET flotilla.bus; RESET client_min_messages';
      return client.query(sql).then(() => {
        modes.set(client, wanted);
      });
    },
    begin(client) {
      collecting.set(client, new Map());
    },
    heard(client, notice) {
      if (notice.message !== busNoticeMessage) return false;
      const recorded = { channel: notice.detail ?? '', payload: notice.hint ?? '' };
      const open = collecting.get(client);
      // Outside any statement known here: handed on at once rather than lost.
      if (open) open.set(`${recorded.channel}\n${recorded.payload}`, recorded);
      else hand([recorded]);
      return true;
    },
    finish(client, committed) {
      const open = collecting.get(client);
      collecting.delete(client);
      if (committed && open && open.size > 0) hand([...open.values()]);
    },
  };
};
