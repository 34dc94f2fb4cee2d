import type { FlotillaClient } from '@flotilla/sdk/create-client';
import {
  type FeatureFlagValues,
  featureFlags,
  isFeatureFlagKey,
} from '@flotilla/shared/feature-flags/flags';
import {
  type EvaluationContext,
  OpenFeature,
  OpenFeatureEventEmitter,
  type Provider,
  ProviderEvents,
  type ResolutionDetails,
  StandardResolutionReasons,
} from '@openfeature/web-sdk';

const fetchValues = (client: FlotillaClient) =>
  client.request<FeatureFlagValues>({ path: '/feature-flags/v1' });

const notBoolean = <T>(defaultValue: T): ResolutionDetails<T> => ({
  value: defaultValue,
  reason: StandardResolutionReasons.DEFAULT,
});

// The console's OpenFeature provider: every flag's value for the signed-in user (the server's
// database provider evaluates them), fetched at start, when the user changes and on refresh().
const createConsoleFlagProvider = (client: FlotillaClient) => {
  let values: Partial<FeatureFlagValues> = {};
  const events = new OpenFeatureEventEmitter();
  const load = async (): Promise<void> => {
    try {
      values = await fetchValues(client);
    } catch {
      // Without an answer every flag keeps its default; the next context change tries again.
      values = {};
    }
  };
  const provider: Provider & { refresh(): Promise<void> } = {
    metadata: { name: 'flotilla-console' },
    runsOn: 'client',
    events,
    initialize: load,
    onContextChange: load,
    async refresh() {
      await load();
      events.emit(ProviderEvents.ConfigurationChanged);
    },
    resolveBooleanEvaluation(flagKey, defaultValue) {
      if (!isFeatureFlagKey(flagKey)) return { value: defaultValue, reason: 'DEFAULT' };
      const value = values[flagKey];
      return value === undefined
        ? { value: featureFlags[flagKey].defaultValue, reason: StandardResolutionReasons.DEFAULT }
        : { value, reason: StandardResolutionReasons.CACHED, variant: value ? 'on' : 'off' };
    },
    resolveStringEvaluation: (_flagKey, defaultValue) => notBoolean(defaultValue),
    resolveNumberEvaluation: (_flagKey, defaultValue) => notBoolean(defaultValue),
    resolveObjectEvaluation: (_flagKey, defaultValue) => notBoolean(defaultValue),
  };
  return provider;
};

let current: { client: FlotillaClient; refresh(): Promise<void> } | undefined;

const contextOf = (userId: number | undefined): EvaluationContext =>
  userId === undefined ? { anonymous: true } : { targetingKey: String(userId) };

// Sets the console's flag provider once per client, and the evaluation context to the signed-in
// user whenever the session changes; the returned function stops following the session.
export const startFeatureFlags = (client: FlotillaClient): (() => void) => {
  let userId = client.auth.session()?.userId;
  if (current?.client !== client) {
    const provider = createConsoleFlagProvider(client);
    current = { client, refresh: provider.refresh };
    void OpenFeature.setContext(contextOf(userId));
    void OpenFeature.setProvider(provider);
  }
  // A token refresh keeps the user: only a sign-in, sign-out or login-as reads the flags again.
  return client.auth.subscribe((session) => {
    if (session?.userId === userId) return;
    userId = session?.userId;
    void OpenFeature.setContext(contextOf(userId));
  });
};

// Reads every flag again (after an administrator changed one).
export const refreshFeatureFlags = (): Promise<void> => current?.refresh() ?? Promise.resolve();
