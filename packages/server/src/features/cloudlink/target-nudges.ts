import type { NotificationBus } from '../../infra/db/notification-bus.js';
import { targetStateChannel } from '../device-state/target-state-cache.js';
import type { LinkRegistry } from './link-registry.js';

// Devices connected to this process hear at once that their target changed (a new release of
// their fleet, a variable, a pin, a move), as balena's API tells supervisors over its VPN, so
// an update does not wait for the next poll (10 minutes by default). The database notifies every
// process of each committed change of what targets are built from (channel target_state: 'd:<id>'
// a device, 'f:<id>' a fleet, '*' anything); a release's own changes ('r:<id>') reach devices
// through their fleet's or device's. Nudges are gathered and sent in paced batches: a fleet of
// thousands polls over seconds, not in one burst.

export type TargetNudgeOptions = {
  // Devices told per tick, and the tick.
  batch: number;
  intervalMs: number;
};

export type TargetNudges = { close(): void };

const keyPattern = /^([df]):(\d{1,10})$/;

export const startTargetNudges = (
  bus: Pick<NotificationBus, 'listen'>,
  links: LinkRegistry,
  options: TargetNudgeOptions,
): TargetNudges => {
  const devices = new Set<number>();
  const fleets = new Set<number>();
  let everyone = false;
  let timer: NodeJS.Timeout | undefined;

  const tick = (): void => {
    timer = undefined;
    if (everyone || fleets.size > 0) {
      for (const link of links.all()) {
        if (everyone || fleets.has(link.fleetId)) devices.add(link.deviceId);
      }
      everyone = false;
      fleets.clear();
    }
    let sent = 0;
    for (const deviceId of devices) {
      if (sent >= options.batch) break;
      devices.delete(deviceId);
      const link = links.get(deviceId);
      if (link === undefined) continue;
      link.targetChanged();
      sent += 1;
    }
    if (devices.size > 0) schedule();
  };

  const schedule = (): void => {
    timer ??= setTimeout(tick, options.intervalMs);
    timer.unref();
  };

  const subscription = bus.listen(targetStateChannel, (payload) => {
    if (payload === '*') everyone = true;
    else {
      const match = keyPattern.exec(payload);
      if (match === null) return;
      const id = Number(match[2]);
      if (match[1] === 'd') devices.add(id);
      else fleets.add(id);
    }
    schedule();
  });

  return {
    close() {
      subscription.close();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      devices.clear();
      fleets.clear();
    },
  };
};
