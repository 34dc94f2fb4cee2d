import {
  type SignupMode,
  signupClosedMessage,
  signupInvitationOnlyMessage,
} from '@flotilla/shared/auth/signup-mode';
import { forbidden } from '../../infra/errors/api-error.js';

// FLOTILLA_SIGNUP at POST /user/register, before anything is counted or checked: closed refuses
// every sign-up; invitation-only refuses one without an invitation token (one with a token then
// creates the account only if the invitation is pending and for that e-mail: accepting it is part
// of the sign-up's transaction). A sign-up mails a verification link to the address given, so an
// installation that is not open to everyone is not a mail relay for everyone either.
export const checkSignupAllowed = (mode: SignupMode, invitationToken: string | undefined): void => {
  if (mode === 'closed') throw forbidden(signupClosedMessage);
  if (mode === 'invitation' && invitationToken === undefined) {
    throw forbidden(signupInvitationOnlyMessage);
  }
};
