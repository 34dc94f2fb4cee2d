import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

export const recoveryCodesFileName = 'flotilla-recovery-codes.txt';

const downloadText = (text: string, fileName: string): void => {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  URL.revokeObjectURL(url);
};

// New recovery codes, shown once: copy or download them, then they are gone.
export const RecoveryCodes = ({ codes, onDone }: { codes: string[]; onDone: () => void }) => {
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  return (
    <Stack spacing={2} role="region" aria-label="Recovery codes">
      <Alert severity="warning">
        Save these recovery codes now: they are shown only once. Each one lets you log in once
        without your authenticator app.
      </Alert>
      <Box
        component="ul"
        sx={{
          display: 'grid',
          gridTemplateColumns: 'repeat(2, max-content)',
          columnGap: 4,
          rowGap: 0.5,
          listStyle: 'none',
          p: 0,
          m: 0,
        }}
      >
        {codes.map((code) => (
          <Typography key={code} component="li" sx={{ fontFamily: 'monospace' }}>
            {code}
          </Typography>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(text).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button onClick={() => downloadText(text, recoveryCodesFileName)}>Download</Button>
        <Button variant="contained" onClick={onDone}>
          I have saved them
        </Button>
      </Stack>
    </Stack>
  );
};
