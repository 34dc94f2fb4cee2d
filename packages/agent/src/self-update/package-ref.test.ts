import { describe, expect, it } from 'vitest';
import { parseAgentPackageRef } from './package-ref.js';

const sha = 'a'.repeat(64);

describe('parseAgentPackageRef', () => {
  it('resolves a path against the agent’s server', () => {
    expect(
      parseAgentPackageRef(`/agent/flotilla-agent.tgz#sha256=${sha}`, 'http://10.0.0.5:8080/'),
    ).toEqual({ url: 'http://10.0.0.5:8080/agent/flotilla-agent.tgz', sha256: sha });
  });

  it('takes an absolute URL and lowercases the digest', () => {
    expect(
      parseAgentPackageRef(
        `https://files.example.com/flotilla-agent-0.2.0.tgz#sha256=${'B'.repeat(64)}`,
        'http://10.0.0.5:8080',
      ),
    ).toEqual({
      url: 'https://files.example.com/flotilla-agent-0.2.0.tgz',
      sha256: 'b'.repeat(64),
    });
  });

  it('names no package for a registry image, a missing or short digest, or another scheme', () => {
    for (const image of [
      null,
      'registry.example.com/balena-os/aarch64-supervisor:v16.2.0',
      '/agent/flotilla-agent.tgz',
      `/agent/flotilla-agent.tgz#sha256=${'a'.repeat(63)}`,
      `file:///tmp/agent.tgz#sha256=${sha}`,
      `agent.tgz#sha256=${sha}`,
    ]) {
      expect(parseAgentPackageRef(image, 'http://10.0.0.5:8080')).toBeNull();
    }
  });
});
