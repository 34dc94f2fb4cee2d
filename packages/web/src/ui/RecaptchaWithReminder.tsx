import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import { RecaptchaField } from './RecaptchaField.js';

// The reCAPTCHA widget of the sign-up, password reset and payment-method forms, with its
// reminder once the user tried to submit without answering it. A new key mounts a fresh widget after a refused attempt.
export const RecaptchaWithReminder = ({
  siteKey,
  onAnswer,
  missing,
}: {
  siteKey: string;
  onAnswer: (answer: string | undefined) => void;
  missing: boolean;
}) => (
  <Box>
    <RecaptchaField siteKey={siteKey} onAnswer={onAnswer} />
    {missing ? (
      <FormHelperText error sx={{ textAlign: 'center' }}>
        Confirm that you are not a robot
      </FormHelperText>
    ) : null}
  </Box>
);
