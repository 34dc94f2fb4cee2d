import { execFile } from 'node:child_process';
import type { Command } from '../config.js';

export type CommandResult = { exitCode: number; stdout: string; stderr: string };

// Runs argv without a shell, with these variables added to the agent's own environment.
// Injected so tests never reboot the machine they run on.
export type CommandRunner = (
  command: Command,
  environment?: Readonly<Record<string, string>>,
) => Promise<CommandResult>;

export const withService = (command: Command, service: string): Command =>
  command.map((part) => part.replaceAll('{service}', service));

export const execFileRunner =
  (timeoutMs = 30_000): CommandRunner =>
  (command, environment) =>
    new Promise((resolve) => {
      const [file, ...args] = command;
      if (file === undefined) {
        resolve({ exitCode: 127, stdout: '', stderr: 'empty command' });
        return;
      }
      const env = environment === undefined ? process.env : { ...process.env, ...environment };
      execFile(
        file,
        args,
        { timeout: timeoutMs, encoding: 'utf8', env },
        (error, stdout, stderr) => {
          const code = error && typeof error.code === 'number' ? error.code : error ? 1 : 0;
          resolve({ exitCode: code, stdout, stderr: stderr || (error?.message ?? '') });
        },
      );
    });
