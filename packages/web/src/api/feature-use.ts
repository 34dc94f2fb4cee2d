import type { FeatureUseName } from '@flotilla/shared/analytics/usage';

// A feature's data layer says which feature was used (create-fleet); first-party analytics
// (features/analytics) counts it when the server counts and the user allowed analytics. An event
// on the window, so that no feature depends on analytics and nothing is sent from here.
export const featureUseEvent = 'flotilla:feature-use';

export const countFeatureUse = (name: FeatureUseName): void => {
  window.dispatchEvent(new CustomEvent(featureUseEvent, { detail: name }));
};
