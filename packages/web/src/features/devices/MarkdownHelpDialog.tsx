import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useId } from 'react';
import { MarkdownText } from '../../ui/MarkdownText.js';

const examples = [
  '# Heading',
  '**bold** and *italic*',
  '`inline code`',
  '- first item\n- second item',
  '1. step one\n2. step two',
  '[a link](https://example.com)',
  '```\ncode block\n```',
];

// The Markdown syntax the notes understand.
export const MarkdownHelpDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>Markdown syntax</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="Markdown examples">
          <TableHead>
            <TableRow>
              <TableCell>You type</TableCell>
              <TableCell>You get</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {examples.map((example) => (
              <TableRow key={example}>
                <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}>
                  {example}
                </TableCell>
                <TableCell>
                  <MarkdownText source={example} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};
