import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';

export const classLabels: Record<ApplicationClass, { one: string; many: string; path: string }> = {
  fleet: { one: 'Fleet', many: 'Fleets', path: '/fleets' },
  app: { one: 'App', many: 'Apps', path: '/apps' },
  block: { one: 'Block', many: 'Blocks', path: '/blocks' },
};

export const fleetPath = (className: ApplicationClass, id: number): string =>
  `${classLabels[className].path}/${id}`;
