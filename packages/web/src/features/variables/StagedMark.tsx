import UndoIcon from '@mui/icons-material/Undo';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import { alpha, type SxProps, type Theme } from '@mui/material/styles';
import Tooltip from '@mui/material/Tooltip';
import type { ChangeKind } from './staged-edits.js';

const colorOf = { added: 'success', updated: 'warning', deleted: 'error' } as const;

const labelOf: Record<ChangeKind, string> = {
  added: 'Added',
  updated: 'Updated',
  deleted: 'Deleted',
};

// The highlight of a table row with a staged edit: tinted by kind, a deleted row struck through.
export const stagedRowSx = (kind: ChangeKind | undefined): SxProps<Theme> =>
  kind === undefined
    ? {}
    : {
        backgroundColor: (theme) => alpha(theme.palette[colorOf[kind]].main, 0.12),
        ...(kind === 'deleted' ? { '& .staged-value': { textDecoration: 'line-through' } } : {}),
      };

// "Added" / "Updated" / "Deleted" beside a staged row, with the undo of that one edit.
export const StagedMark = ({
  kind,
  name,
  onUndo,
}: {
  kind: ChangeKind | undefined;
  name: string;
  onUndo: () => void;
}) =>
  kind === undefined ? null : (
    <>
      <Chip size="small" color={colorOf[kind]} variant="outlined" label={labelOf[kind]} />
      <Tooltip title="Undo this change">
        <IconButton size="small" aria-label={`Undo change of ${name}`} onClick={onUndo}>
          <UndoIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </>
  );
