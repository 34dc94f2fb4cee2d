import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';

// The inline error under a setting whose save failed ("skip" texts show nothing).
export const MutationError = ({ error, fallback }: { error: unknown; fallback: string }) =>
  error ? <Alert severity="error">{errorText(error) ?? fallback}</Alert> : null;
