import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { usePublicConfig } from '../../api/config/api.js';

// The operator's service agreement (FLOTILLA_SERVICE_AGREEMENT_URL): shown only when the
// installation has one, so there is never a dead link.
export const ServiceAgreementLink = () => {
  const url = usePublicConfig().data?.serviceAgreementUrl;
  if (!url) return null;
  return (
    <Typography variant="body2" color="text.secondary">
      Your plan and payments are subject to the{' '}
      <Link href={url} target="_blank" rel="noopener noreferrer">
        service agreement
      </Link>
      .
    </Typography>
  );
};
