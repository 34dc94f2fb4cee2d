// Who may create an account on an installation (FLOTILLA_SIGNUP), served by GET /config as
// `signup` so that the console's sign-up page says what applies instead of failing.
export const signupModes = ['open', 'invitation', 'closed'] as const;
export type SignupMode = (typeof signupModes)[number];

// The answers of POST /user/register when sign-up is not open to the request, and the
// console's words for the same (one text, so both say the same).
export const signupClosedMessage =
  'Sign-up is closed on this installation: ask its administrator for an account';
export const signupInvitationOnlyMessage =
  'Sign-up on this installation is by invitation only: open the link in your invitation mail to create an account';
