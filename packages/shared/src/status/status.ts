// The status page's JSON (GET /status/v1), as the server answers and the console (the /status
// page, the header's dot, the support drawer's known-issues warning) reads it.
export type ComponentStatus = 'operational' | 'degraded' | 'outage' | 'unknown';
export type OverallStatus = 'operational' | 'maintenance' | 'degraded' | 'outage';

export const statusComponentIds = [
  'api',
  'database',
  'device-links',
  'builder',
  'registry',
  'mail',
] as const;
export type StatusComponentId = (typeof statusComponentIds)[number];

export type StatusComponent = {
  id: StatusComponentId;
  name: string;
  status: ComponentStatus;
  // Why it is not operational (or why it is not known), for people; null when operational.
  detail: string | null;
};

export const statusNoticeKinds = ['incident', 'maintenance'] as const;
export type StatusNoticeKind = (typeof statusNoticeKinds)[number];
export const statusNoticeSeverities = ['minor', 'major'] as const;
export type StatusNoticeSeverity = (typeof statusNoticeSeverities)[number];

export type StatusNotice = {
  id: number;
  kind: StatusNoticeKind;
  severity: StatusNoticeSeverity;
  title: string;
  message: string;
  createdAt: string;
  resolvedAt: string | null;
};

export type StatusAnswer = {
  // The worst of the components and the open notices.
  status: OverallStatus;
  // When the components were last probed (answers are cached briefly).
  checkedAt: string;
  // FLOTILLA_STATUS_PAGE_URL: an external status page that replaces the built-in one.
  externalUrl: string | null;
  components: StatusComponent[];
  // Open incidents and maintenance notices; null when they cannot be read (database outage).
  notices: StatusNotice[] | null;
};

// What a platform administrator posts (validated by statusNoticeInput on the server).
export type StatusNoticeInput = {
  kind: StatusNoticeKind;
  severity: StatusNoticeSeverity;
  title: string;
  message?: string;
};

// The known-issues warning shows when the overall status is anything but operational.
export const hasKnownIssues = (answer: Pick<StatusAnswer, 'status'>): boolean =>
  answer.status !== 'operational';
