import { z } from 'zod';

// Health checks and diagnostics: what a device answers to the cloudlink actions `checks` and
// `diagnose`, and what the actions service (POST /actions/v1/:uuid/:action, GET
// /actions/v1/:uuid/:runId) answers the console.

export const diagnosticActions = ['checks', 'diagnose'] as const;
export type DiagnosticAction = (typeof diagnosticActions)[number];

// idle: never run; configuring: accepted, not yet sent; in_progress: sent to the device.
export const runStatuses = ['configuring', 'done', 'error', 'idle', 'in_progress'] as const;
export type RunStatus = (typeof runStatuses)[number];

// One health check: `status` is its message ("Disk space: 12% used").
export const checkResult = z.object({
  name: z.string().max(200),
  success: z.boolean(),
  status: z.string().max(2000),
});
export type CheckResult = z.infer<typeof checkResult>;

// The device's answer to `checks`.
export const checksReport = z.object({
  diagnose_version: z.string().max(100),
  checks: z.array(checkResult).max(200),
});
export type ChecksReport = z.infer<typeof checksReport>;

// The device's answer to `diagnose`: a text report.
export const diagnoseReport = z.object({
  diagnose_version: z.string().max(100),
  stdout: z.string().max(1_000_000),
});
export type DiagnoseReport = z.infer<typeof diagnoseReport>;

// One run as the actions service answers it. `lastRun` is when it finished (ISO), null while it
// runs; `checks` for a checks run, `stdout` for a diagnose run, once done; `error` when it failed.
export type DiagnosticRun = {
  id: string;
  action: DiagnosticAction;
  status: RunStatus;
  createdAt: string;
  lastRun: string | null;
  diagnose_version: string | null;
  checks: CheckResult[] | null;
  stdout: string | null;
  error: string | null;
};

export const isDiagnosticAction = (value: unknown): value is DiagnosticAction =>
  typeof value === 'string' && (diagnosticActions as readonly string[]).includes(value);
