import { describe, expect, it } from 'vitest';
import { agentInstallCommand, isLoopbackUrl } from './agent-package.js';

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

describe('isLoopbackUrl', () => {
  it('is true for the addresses only this machine reaches', () => {
    for (const url of [
      'http://localhost:8080',
      'http://LOCALHOST',
      'http://app.localhost:8080',
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://[::1]:8080',
    ]) {
      expect(isLoopbackUrl(url), url).toBe(true);
    }
  });

  it('is false for network addresses and names, and for what is not a URL', () => {
    for (const url of [
      'http://10.0.0.5:8080',
      'https://fleet.example.com',
      'http://localhost.example.com',
      'http://127.0.0.1.example.com',
      '',
    ]) {
      expect(isLoopbackUrl(url), url).toBe(false);
    }
  });
});
