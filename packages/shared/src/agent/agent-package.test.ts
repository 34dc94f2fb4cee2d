import { describe, expect, it } from 'vitest';
import { agentInstallCommand } from './agent-package.js';

describe('agentInstallCommand', () => {
  it('installs the package from the server with npx and runs it next to config.json', () => {
    expect(agentInstallCommand('http://10.0.0.5:8080')).toBe(
      'npx --yes http://10.0.0.5:8080/agent/flotilla-agent.tgz --config config.json',
    );
    expect(agentInstallCommand('https://fleet.example.com/')).toBe(
      'npx --yes https://fleet.example.com/agent/flotilla-agent.tgz --config config.json',
    );
  });
});
