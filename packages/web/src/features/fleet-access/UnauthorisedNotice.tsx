import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

// Seed 001: "Without view rights a notice says the user is unauthorised to view and edit."
export const UnauthorisedNotice = ({ what }: { what: 'members' | 'teams' }) => (
  <Paper variant="outlined" role="alert" sx={{ p: 6, textAlign: 'center' }}>
    <Typography>You are not authorised to view and edit the {what} of this fleet.</Typography>
  </Paper>
);
