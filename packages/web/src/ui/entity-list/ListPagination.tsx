import TablePagination from '@mui/material/TablePagination';

// Below a list the server pages: one fixed page size, so only the page moves.
export const ListPagination = ({
  total,
  page,
  pageSize,
  onPage,
}: {
  total: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) => (
  <TablePagination
    component="div"
    count={total}
    page={page}
    rowsPerPage={pageSize}
    rowsPerPageOptions={[pageSize]}
    onPageChange={(_event, next) => onPage(next)}
  />
);
