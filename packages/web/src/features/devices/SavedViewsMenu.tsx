import BookmarksIcon from '@mui/icons-material/BookmarksOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import {
  maxViewNameLength,
  removeView,
  saveView,
  useSavedViews,
  viewNameProblem,
} from '../../ui/saved-views.js';
import { type DeviceListParams, paramsOfView, viewStateOf } from './useDeviceListParams.js';

const table = 'fleet-devices';

// Saves the table's filters, sort and tag columns under a name in this browser, and restores them.
export const SavedViewsMenu = ({
  params,
  onParams,
}: {
  params: DeviceListParams;
  onParams: (changes: Partial<DeviceListParams>) => void;
}) => {
  const views = useSavedViews(table);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [unkept, setUnkept] = useState(false);
  const problem = viewNameProblem(name);
  const replaces = views.some((view) => view.name === name.trim());
  const save = (event: FormEvent): void => {
    event.preventDefault();
    setSubmitted(true);
    if (problem !== null) return;
    setUnkept(!saveView(table, { name, state: viewStateOf(params) }));
    setNaming(false);
  };
  return (
    <>
      <Button
        startIcon={<BookmarksIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
      >
        Views
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {views.length === 0 ? <MenuItem disabled>No saved views</MenuItem> : null}
        {views.map((view) => (
          <MenuItem
            key={view.name}
            onClick={() => {
              onParams(paramsOfView(view.state));
              setAnchor(null);
            }}
          >
            <ListItemText primary={view.name} />
            <IconButton
              size="small"
              edge="end"
              aria-label={`Delete view ${view.name}`}
              onClick={(event) => {
                event.stopPropagation();
                setUnkept(!removeView(table, view.name));
              }}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setName('');
            setSubmitted(false);
            setNaming(true);
          }}
        >
          Save current view…
        </MenuItem>
      </Menu>
      {unkept ? (
        <Alert severity="warning" onClose={() => setUnkept(false)}>
          This browser refused to store the views: they last until the page is reloaded.
        </Alert>
      ) : null}
      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="xs">
        <form onSubmit={save} noValidate>
          <DialogTitle>Save current view</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              margin="dense"
              label="View name"
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={submitted && problem !== null}
              helperText={
                submitted && problem !== null
                  ? problem
                  : replaces
                    ? 'Replaces the saved view of this name'
                    : 'The search, filters, sort, tag columns and page size'
              }
              slotProps={{ htmlInput: { maxLength: maxViewNameLength + 1 } }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setNaming(false)}>Cancel</Button>
            <Button type="submit" variant="contained">
              Save
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
};
