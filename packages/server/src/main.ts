#!/usr/bin/env node
import { runServerProcess } from './run-server.js';

// `flotilla-server`: configuration from the environment (README.md), stops on Ctrl-C / SIGTERM.
await runServerProcess();
