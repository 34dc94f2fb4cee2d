import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { byteSize } from './release-format.js';
import type { ReleaseService } from './release-services.js';

// The release's services, each with its image's status and size, or why it has no Dockerfile.
export const ReleaseServicesTable = ({ services }: { services: readonly ReleaseService[] }) => (
  <Paper variant="outlined" component="section" aria-labelledby="release-services-title">
    <Typography id="release-services-title" variant="h3" sx={{ p: 2, pb: 1 }}>
      Services
    </Typography>
    <Table size="small" aria-label="Services and images">
      <TableHead>
        <TableRow>
          <TableCell>Service</TableCell>
          <TableCell>Image status</TableCell>
          <TableCell>Image size</TableCell>
          <TableCell>Notes</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {services.length === 0 ? (
          <TableRow>
            <TableCell colSpan={4}>
              <Typography color="text.secondary">This release has no images.</Typography>
            </TableCell>
          </TableRow>
        ) : null}
        {services.map(({ name, image }) => (
          <TableRow key={image.id}>
            <TableCell>{name}</TableCell>
            <TableCell>{image.status}</TableCell>
            <TableCell>{image.image_size ? byteSize(image.image_size) : '—'}</TableCell>
            <TableCell>
              {image.error_message ?? (image.dockerfile ? '' : 'No Dockerfile available')}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </Paper>
);
