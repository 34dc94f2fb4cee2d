import { apiKeyExpiryPresetDays, textLengthLimits } from '@flotilla/shared/constants/limits';

// The API key form: a name, and an expiry of 1, 7, 30 or 90 days, a custom
// date-time not in the past, or never (with a warning).

export type ExpiryChoice = `${(typeof apiKeyExpiryPresetDays)[number]}` | 'custom' | 'never';

export const expiryChoices: readonly { value: ExpiryChoice; label: string }[] = [
  ...apiKeyExpiryPresetDays.map((days) => ({
    value: `${days}` as const,
    label: days === 1 ? '1 day' : `${days} days`,
  })),
  { value: 'custom', label: 'Custom date' },
  { value: 'never', label: 'Never' },
];

export const apiKeyMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `The name may be at most ${textLengthLimits.name} characters`,
  customRequired: 'Choose the expiry date',
  customInPast: 'The expiry date may not be in the past',
  never: 'A key that never expires works until it is revoked: prefer an expiry date.',
} as const;

export const apiKeyNameProblem = (name: string): string | undefined => {
  const trimmed = name.trim();
  if (trimmed === '') return apiKeyMessages.nameRequired;
  if (trimmed.length > textLengthLimits.name) return apiKeyMessages.nameTooLong;
  return undefined;
};

const dayMs = 86_400_000;

// The expiry to send (ISO, or null for never), or why the choice is not acceptable. `custom`
// is a datetime-local value ("2030-01-01T12:00"), read in the browser's time zone.
export const expiryOf = (
  choice: ExpiryChoice,
  custom: string,
  now: number,
): { expiryDate: string | null } | { problem: string } => {
  if (choice === 'never') return { expiryDate: null };
  if (choice === 'custom') {
    const time = new Date(custom).getTime();
    if (custom === '' || Number.isNaN(time)) return { problem: apiKeyMessages.customRequired };
    if (time <= now) return { problem: apiKeyMessages.customInPast };
    return { expiryDate: new Date(time).toISOString() };
  }
  return { expiryDate: new Date(now + Number(choice) * dayMs).toISOString() };
};

export const expiryText = (expiry: string | null, now: number): string => {
  if (expiry === null) return 'Never';
  const time = new Date(expiry).getTime();
  const date = new Date(expiry).toLocaleString();
  return time <= now ? `Expired ${date}` : date;
};
