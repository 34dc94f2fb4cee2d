import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { usePublicConfig } from '../../api/config/api.js';

// Where a change that is not self-serve goes: the installation's help link when the operator
// set one, otherwise the words to reach them.
export const ContactSales = ({ variant = 'button' }: { variant?: 'button' | 'text' }) => {
  const help = usePublicConfig().data?.helpLinks?.help ?? null;
  if (help === null) {
    return (
      <Typography variant="body2" color="text.secondary">
        Contact the operator of this installation (sales) for this plan.
      </Typography>
    );
  }
  return (
    <Button
      variant={variant === 'button' ? 'contained' : 'text'}
      href={help}
      target="_blank"
      rel="noopener noreferrer"
    >
      Contact sales
    </Button>
  );
};
