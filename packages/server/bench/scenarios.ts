import type { Scenario } from './scenario.js';
import { auditWriteScenario } from './scenario-audit-write.js';
import { consoleColdLoadScenario } from './scenario-console-cold-load.js';
import { eventEmissionScenario } from './scenario-event-emission.js';
import { imageBuildScenario } from './scenario-image-build.js';
import { fleetVariableChangeScenario } from './scenario-fleet-variable-change.js';
import { devicePageScenario, deviceCountScenario } from './scenario-device-page.js';
import { deviceUrlScenario } from './scenario-device-url.js';
import {
  fleetListMemberScenario,
  fleetListScenario,
  fleetListSmallScenario,
  fleetSummaryScenario,
} from './scenario-fleet-counts.js';
import { logFanoutScenario } from './scenario-log-fanout.js';
import { liveTailScenario, logIngestScenario } from './scenario-logs.js';
import { memoryScenario } from './scenario-memory.js';
import { pinejsScenario } from './scenario-pinejs.js';
import { pollScenario } from './scenario-poll.js';
import { releaseListScenario } from './scenario-release-list.js';
import { rolloutBurstScenario } from './scenario-rollout-burst.js';
import { stateReportScenario } from './scenario-state-report.js';
import { changingStateReportScenario } from './scenario-state-report-changing.js';
import { terminalScenario } from './scenario-terminal.js';
import { webhookDeliveryScenario } from './scenario-webhook-delivery.js';

// Every scenario, in the order they run: reads first (the device protocol's writes, heartbeats
// and logs, must not change what they read), then the device protocol, then memory (fresh
// processes), then the image build (an engine and a server of its own). A new scenario is a file exporting a Scenario (scenario.ts) and a line here.
export const scenarios: readonly Scenario[] = [
  devicePageScenario,
  deviceCountScenario,
  fleetListScenario,
  fleetListSmallScenario,
  fleetListMemberScenario,
  fleetSummaryScenario,
  releaseListScenario,
  pinejsScenario,
  consoleColdLoadScenario,
  pollScenario,
  stateReportScenario,
  changingStateReportScenario,
  eventEmissionScenario,
  fleetVariableChangeScenario,
  auditWriteScenario,
  webhookDeliveryScenario,
  rolloutBurstScenario,
  liveTailScenario,
  logIngestScenario,
  logFanoutScenario,
  memoryScenario,
  terminalScenario,
  deviceUrlScenario,
  imageBuildScenario,
];
