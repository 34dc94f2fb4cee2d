import { describe, expect, it } from 'vitest';
import { signupClosedMessage, signupInvitationOnlyMessage } from '../auth/signup-mode.js';
import {
  emailTakenMessage,
  expiredVerificationLinkMessage,
  invalidVerificationLinkMessage,
} from '../auth/account-mail.js';
import { emailProblem, passwordProblem } from '../auth/credentials.js';
import { freshAuthenticationRequiredMessage } from '../auth/reauthentication.js';
import { redirectUriProblem } from '../auth/oauth.js';
import { twoFactorErrors } from '../auth/two-factor.js';
import { textLengthProblem } from '../constants/text-length.js';
import { coordinateProblem } from '../devices/location.js';
import { localModeMessages } from '../devices/local-mode.js';
import { fleetNameProblem } from '../fleets/fleet-name.js';
import { osUpdateMessages } from '../host-os/os-update-eligibility.js';
import { supervisorUpdateMessages } from '../host-os/supervisor-update.js';
import { releaseRuleMessages } from '../releases/release-status.js';
import { sshKeyMessages } from '../ssh-keys/ssh-key-rules.js';
import { passwordsMismatchMessage, profileProblems } from '../users/profile.js';
import { usernameProblem, usernameRuleText } from '../users/username.js';
import { variableMessages } from '../variables/variable-form-rules.js';

// Messages a user reads start with a capital letter, except those the product quotes word for
// word in lower case (balena's own wording, kept for users who know it).
const verbatimLowerCase = new Set([
  'invalid id passed in url',
  'must first enter repo url',
  'could not find id',
  'missing required attributes',
  'no target received',
  'failed query check',
  // The fleet name's rules, as the create and rename forms show them.
  'name required',
  'at least 4 characters',
  'maximum 100 characters',
]);
// Not scanned: messages that start with a name the user chose (a username, a device's name).

type Message = string | ((version: string, deviceType: string) => string);

// The strings of a message table; a message built from arguments is read with sample ones.
const textsOf = (table: Record<string, Message>): string[] =>
  Object.values(table).map((message) =>
    typeof message === 'string' ? message : message('1.0.0', 'raspberrypi4-64'),
  );

const lowerCaseStarts = (texts: readonly (string | null | undefined)[]): string[] =>
  texts.filter(
    (text): text is string =>
      typeof text === 'string' && /^[a-z]/.test(text) && !verbatimLowerCase.has(text),
  );

describe('user-facing messages', () => {
  it('start with a capital letter unless quoted word for word in lower case', () => {
    const texts = [
      ...textsOf(sshKeyMessages),
      ...textsOf(releaseRuleMessages),
      ...textsOf(supervisorUpdateMessages),
      ...textsOf(osUpdateMessages),
      ...textsOf(localModeMessages),
      ...textsOf({
        ...variableMessages,
        reservedNamespace: () => variableMessages.reservedNamespace(['BALENA_']),
        configNamespace: () => variableMessages.configNamespace(['BALENA_']),
        minimum: () => variableMessages.minimum(1),
        oneOf: () => variableMessages.oneOf([1, 2]),
        fileType: () => variableMessages.fileType('image/png'),
        fileSize: () => variableMessages.fileSize(1024),
      }),
      ...Object.values(twoFactorErrors).map((error) => error.message),
      signupClosedMessage,
      signupInvitationOnlyMessage,
      emailTakenMessage,
      expiredVerificationLinkMessage,
      invalidVerificationLinkMessage,
      freshAuthenticationRequiredMessage,
      passwordsMismatchMessage,
      usernameRuleText,
      ...['', 'x', 'not-an-address'].map(emailProblem),
      ...['', 'short', 'x'.repeat(200)].map(passwordProblem),
      ...['', 'a', 'not valid!'].map(usernameProblem),
      ...['', 'ab', 'x'.repeat(101), '-abcd'].map(fleetNameProblem),
      ...['relative', 'ftp://x.test/', 'https://x.test/#a', 'https://u:p@x.test/'].map(
        redirectUriProblem,
      ),
      ...['x', '200'].flatMap((value) => [
        coordinateProblem('latitude', value),
        coordinateProblem('longitude', value),
      ]),
      textLengthProblem('Name', 'x'.repeat(10_000)),
      ...Object.values(profileProblems({ first_name: '', last_name: '', company: '' })),
    ];
    expect(texts.filter((text) => typeof text === 'string').length).toBeGreaterThan(50);
    expect(lowerCaseStarts(texts)).toEqual([]);
  });

  it('reports a lower-case message that is not quoted word for word', () => {
    expect(lowerCaseStarts(['must be set', 'name required', 'Name is required'])).toEqual([
      'must be set',
    ]);
  });
});
