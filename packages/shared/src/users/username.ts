// One rule for every write of a username (sign-up, PATCH /v7/user, the first administrator):
// 3 to 30 ASCII letters, digits or underscores. Usernames are unique ignoring case (the database
// holds a unique index on lower(username)), so "Alice" and "alice" are one name.
export const usernameLength = { min: 3, max: 30 } as const;

const usernamePattern = /^[A-Za-z0-9_]+$/;

export const usernameRuleText = `Username must be ${usernameLength.min} to ${usernameLength.max} letters, digits or underscores`;

// Why `username` may not be written, or undefined when it may.
export const usernameProblem = (username: string): string | undefined => {
  if (username.length < usernameLength.min || username.length > usernameLength.max) {
    return usernameRuleText;
  }
  return usernamePattern.test(username) ? undefined : usernameRuleText;
};
