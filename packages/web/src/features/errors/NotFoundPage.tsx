import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';

export const NotFoundPage = () => {
  usePageTitle('Page not found');
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', mt: 12, textAlign: 'center', px: 2 }}>
      <Typography variant="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        The page you are looking for does not exist or has moved.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/">
        Go home
      </Button>
    </Box>
  );
};
