import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ReactElement } from 'react';

// One icon action of a variables row; disabled with the reason in its tooltip.
export const RowAction = ({
  label,
  title,
  icon,
  denied,
  onClick,
}: {
  label: string;
  title: string;
  icon: ReactElement;
  denied: string | null;
  onClick: () => void;
}) => (
  <Tooltip title={denied ?? title}>
    <span>
      <IconButton size="small" aria-label={label} disabled={denied !== null} onClick={onClick}>
        {icon}
      </IconButton>
    </span>
  </Tooltip>
);

export const EditAction = (props: { name: string; denied: string | null; onClick: () => void }) => (
  <RowAction
    label={`Edit ${props.name}`}
    title="Edit the value"
    icon={<EditIcon fontSize="small" />}
    denied={props.denied}
    onClick={props.onClick}
  />
);

export const DeleteAction = (props: {
  name: string;
  title?: string;
  denied: string | null;
  onClick: () => void;
}) => (
  <RowAction
    label={`Delete ${props.name}`}
    title={props.title ?? 'Delete'}
    icon={<DeleteIcon fontSize="small" />}
    denied={props.denied}
    onClick={props.onClick}
  />
);
