import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { WebResource } from '@flotilla/sdk/resources/organization';
import { logoMaxBytes } from '@flotilla/shared/constants/limits';
import Avatar from '@mui/material/Avatar';
import { useClient } from '../../api/client.js';

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

export const uploadLogo = (client: FlotillaClient, organizationId: number, file: File) =>
  client.request<{ logo_image: WebResource }>({
    method: 'PUT',
    path: `/org/v1/organization/${organizationId}/logo`,
    upload: { data: file, contentType: file.type || 'application/octet-stream' },
  });

export const removeLogo = (client: FlotillaClient, organizationId: number) =>
  client.request<string>({ method: 'DELETE', path: `/org/v1/organization/${organizationId}/logo` });

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
  const client = useClient();
  return (
    <Avatar
      variant="rounded"
      alt={`${name} logo`}
      src={logo ? `${client.apiUrl}${logo.href}` : undefined}
      sx={{ width: size, height: size, bgcolor: 'primary.main', fontSize: size / 2.2 }}
    >
      {name.slice(0, 1).toUpperCase()}
    </Avatar>
  );
};
