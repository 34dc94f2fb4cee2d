import { errorText } from '@flotilla/sdk/errors';
import type { CatalogueImportResult } from '@flotilla/shared/host-os/catalogue';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useImportCatalogue } from './api.js';

// A chosen file, read and parsed here so a file that is not JSON is named before it is sent.
type Chosen = { name: string; content: unknown } | { name: string; problem: string };

// FileReader rather than File.text(): every browser the console supports has it.
const readText = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });

const readFile = async (file: File): Promise<Chosen> => {
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return { name: file.name, problem: `${file.name} could not be read` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return { name: file.name, content: parsed };
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'it could not be parsed';
    return { name: file.name, problem: `${file.name} is not a JSON file: ${reason}` };
  }
};

const resultText = ({ created, updated, unchanged }: CatalogueImportResult): string =>
  `${created} created, ${updated} updated, ${unchanged} unchanged`;

// Imports a catalogue file ({"releases": [...]}, docs/HOST-OS.md): the server creates or updates
// every entry in one go, or refuses the whole file naming the entry that is wrong.
export const ImportCatalogueDialog = ({ onClose }: { onClose: () => void }) => {
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [result, setResult] = useState<CatalogueImportResult | null>(null);
  // A new input after each choice, so choosing the same file again (after fixing it) reads it.
  const [picks, setPicks] = useState(0);
  const run = useImportCatalogue(setResult);
  const content = chosen !== null && 'content' in chosen ? chosen.content : undefined;
  return (
    <Dialog open onClose={run.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Import a catalogue file</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            A JSON file with a <code>releases</code> list. Releases it names are created or brought
            in line with it; releases it does not name stay as they are. A bad entry refuses the
            whole file.
          </Typography>
          <Box>
            <Button variant="outlined" component="label" disabled={run.isPending}>
              Choose catalogue file
              <input
                key={picks}
                hidden
                type="file"
                accept=".json,application/json"
                aria-label="Catalogue file"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  setPicks((count) => count + 1);
                  setResult(null);
                  run.reset();
                  if (file !== undefined) void readFile(file).then(setChosen);
                }}
              />
            </Button>
            <Typography component="span" sx={{ ml: 2 }} color="text.secondary">
              {chosen?.name ?? 'No file chosen'}
            </Typography>
          </Box>
          {chosen !== null && 'problem' in chosen ? (
            <Alert severity="error">{chosen.problem}</Alert>
          ) : null}
          {run.isError ? (
            <Alert severity="error">
              <AlertTitle>Nothing was imported</AlertTitle>
              {errorText(run.error) ?? 'Could not import the file'}
            </Alert>
          ) : null}
          {result !== null ? (
            <Alert severity="success" role="status">
              <AlertTitle>Imported {chosen?.name}</AlertTitle>
              {resultText(result)}
            </Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={run.isPending}>
          {result !== null ? 'Close' : 'Cancel'}
        </Button>
        <Button
          variant="contained"
          disabled={content === undefined || run.isPending || result !== null}
          onClick={() => run.mutate(content)}
        >
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
};
