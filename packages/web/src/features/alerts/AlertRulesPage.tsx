import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AlertRuleDialog } from './AlertRuleDialog.js';
import { AlertRuleRowActions } from './AlertRuleRowActions.js';
import { useAlertRules, useMayWriteAlertRules } from './api.js';
import { conditionText, ruleStateText } from './rule-text.js';

// /orgs/:organizationId/alerts: what raises an alert on the organization's devices. Members read
// the rules; administrators add, enable, silence and delete them. Alerts are mailed to the
// administrators.
export const AlertRulesPage = () => {
  usePageTitle('Alert rules');
  const organizationId = Number(useParams().organizationId);
  const rules = useAlertRules(organizationId);
  const mayWrite = useMayWriteAlertRules(organizationId);
  const [adding, setAdding] = useState(false);
  const now = new Date();
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h2">Alert rules</Typography>
        {mayWrite === true ? (
          <Button variant="contained" onClick={() => setAdding(true)}>
            Add alert rule
          </Button>
        ) : null}
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Rules are checked every minute. The organization&apos;s administrators get a mail when an
        alert fires, a reminder while it lasts, and one when it resolves.
        {mayWrite === false ? ' Only administrators change the rules.' : ''}
      </Typography>
      <LoadState queries={[rules]} what="alert rules" />
      {rules.data === undefined ? null : rules.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No alert rules yet.</Typography>
          <Typography variant="body2" color="text.secondary">
            A rule can watch for devices offline, a metric above a threshold, or failed updates.
          </Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table size="small" aria-label="Alert rules">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Condition</TableCell>
                <TableCell>Fleets</TableCell>
                <TableCell>State</TableCell>
                {mayWrite === true ? <TableCell align="right">Actions</TableCell> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {rules.data.map((rule) => (
                <TableRow key={rule.id}>
                  <TableCell>{rule.name}</TableCell>
                  <TableCell>{conditionText(rule)}</TableCell>
                  <TableCell>{rule.applies_to__application[0]?.app_name ?? 'All fleets'}</TableCell>
                  <TableCell>{ruleStateText(rule, now)}</TableCell>
                  {mayWrite === true ? (
                    <TableCell align="right">
                      <AlertRuleRowActions organizationId={organizationId} rule={rule} now={now} />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {adding ? (
        <AlertRuleDialog organizationId={organizationId} onClose={() => setAdding(false)} />
      ) : null}
    </Stack>
  );
};
