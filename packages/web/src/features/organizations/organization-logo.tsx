import type { WebResource } from '@flotilla/sdk/resources/organization';
import { logoMaxBytes } from '@flotilla/shared/constants/limits';
import Avatar from '@mui/material/Avatar';
import { useLogoSource } from './api-organizations.js';

// What a chosen file must be before it is sent (the server decides by its content again).
export const logoFileProblem = (file: File): string | undefined => {
  if (file.size > logoMaxBytes) {
    return `The logo must be at most ${logoMaxBytes.toLocaleString('en-US')} bytes`;
  }
  if (!['image/png', 'image/jpeg'].includes(file.type) && !/\.(png|jpe?g)$/i.test(file.name)) {
    return 'The logo must be a PNG or JPEG image';
  }
  return undefined;
};

// The organization's logo, or its initial.
export const OrganizationLogo = ({
  name,
  logo,
  size = 40,
}: {
  name: string;
  logo: WebResource | null;
  size?: number;
}) => {
  const source = useLogoSource(logo);
  return (
    <Avatar
      variant="rounded"
      alt={`${name} logo`}
      src={source}
      sx={{ width: size, height: size, bgcolor: 'primary.main', fontSize: size / 2.2 }}
    >
      {name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
};
