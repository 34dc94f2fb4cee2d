// The agent's own version (sent in the cloudlink Hello and the User-Agent).
export const agentVersion = '0.1.0';

// The balena-supervisor API level the agent answers like. It is what we report as
// supervisor_version, because the console enables actions by supervisor version
// (container control needs 7+, local mode 4+, the v3 target state 13+).
export const supervisorCompatVersion = '17.1.0';

export const userAgent = `flotilla-agent/${agentVersion}`;
