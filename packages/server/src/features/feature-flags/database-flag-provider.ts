import { featureFlags, isFeatureFlagKey } from '@flotilla/shared/feature-flags/flags';
import {
  type EvaluationContext,
  ErrorCode,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
  StandardResolutionReasons,
} from '@openfeature/server-sdk';
import type { Queryable } from '../../infra/db/database.js';
import { flagValue } from './flag-settings.js';

const numericAttribute = (context: EvaluationContext, name: string): number | null => {
  const raw = name === 'targetingKey' ? context.targetingKey : context[name];
  const value = typeof raw === 'string' ? Number(raw) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
};

// Our flags are booleans only; any other type asked for is a caller's mistake.
const typeMismatch = <T>(defaultValue: T): ResolutionDetails<T> => ({
  value: defaultValue,
  reason: StandardResolutionReasons.ERROR,
  errorCode: ErrorCode.TYPE_MISMATCH,
  errorMessage: 'Flotilla feature flags are boolean',
});

// The built-in OpenFeature provider: flags stored in PostgreSQL (feature_flag_setting) and set by
// platform administrators. The evaluation context's targetingKey is the user id and its
// organizationId attribute narrows to one of the user's organizations. Another OpenFeature
// provider (a flag service) can replace it without touching a caller.
export const databaseFlagProvider = (db: Queryable): Provider => ({
  metadata: { name: 'flotilla-database' },
  runsOn: 'server',
  async resolveBooleanEvaluation(flagKey, defaultValue, context) {
    if (!isFeatureFlagKey(flagKey)) {
      return {
        value: defaultValue,
        reason: StandardResolutionReasons.ERROR,
        errorCode: ErrorCode.FLAG_NOT_FOUND,
        errorMessage: `No feature flag ${flagKey}`,
      };
    }
    const { value, reason } = await flagValue(db, flagKey, {
      userId: numericAttribute(context, 'targetingKey'),
      organizationId: numericAttribute(context, 'organizationId'),
    });
    return {
      value,
      reason:
        reason === 'default'
          ? StandardResolutionReasons.DEFAULT
          : StandardResolutionReasons.TARGETING_MATCH,
      variant: value ? 'on' : 'off',
      flagMetadata: { scope: reason, declaredDefault: featureFlags[flagKey].defaultValue },
    };
  },
  async resolveStringEvaluation(_flagKey, defaultValue) {
    return typeMismatch(defaultValue);
  },
  async resolveNumberEvaluation(_flagKey, defaultValue) {
    return typeMismatch(defaultValue);
  },
  async resolveObjectEvaluation<T extends JsonValue>(_flagKey: string, defaultValue: T) {
    return typeMismatch(defaultValue);
  },
});
