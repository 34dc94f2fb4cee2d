import { textLengthLimits } from '../constants/limits.js';

// The profile the user edits, and the new-password confirmation.

export const accountTypes = ['personal', 'professional'] as const;
export type AccountType = (typeof accountTypes)[number];

export const isAccountType = (value: unknown): value is AccountType =>
  accountTypes.some((known) => known === value);

export type ProfileFields = {
  first_name: string;
  last_name: string;
  company: string;
  // Required to be answered, but "none of these" (null) is an answer.
  account_type: AccountType | null;
};

export const profileFieldLabels: Record<keyof ProfileFields, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  account_type: 'Account type',
};

const textProblem = (label: string, value: string): string | undefined => {
  if (value.trim() === '') return `${label} is required`;
  if (value.length > textLengthLimits.name) {
    return `${label} must be at most ${textLengthLimits.name} characters`;
  }
  return undefined;
};

// What is wrong with each text field of a profile (none: an empty object).
export const profileProblems = (
  profile: Pick<ProfileFields, 'first_name' | 'last_name' | 'company'>,
): Partial<Record<'first_name' | 'last_name' | 'company', string>> => {
  const problems: Partial<Record<'first_name' | 'last_name' | 'company', string>> = {};
  for (const field of ['first_name', 'last_name', 'company'] as const) {
    const problem = textProblem(profileFieldLabels[field], profile[field]);
    if (problem !== undefined) problems[field] = problem;
  }
  return problems;
};

export const passwordsMismatchMessage = "Passwords don't match";
