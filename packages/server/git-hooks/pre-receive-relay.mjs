// The pre-receive hook of a fleet's git remote (packages/server/src/features/git-remote): sends
// the pushed refs to the server over the push's own Unix socket and prints the build log, which
// git shows the pushing client as `remote:` lines. Exits with the server's verdict: non-zero
// refuses the push.
import { connect } from 'node:net';

const socketPath = process.env.FLOTILLA_GIT_HOOK_SOCKET;
if (!socketPath) {
  console.log('This repository only accepts pushes through the Flotilla server');
  process.exit(1);
}

let exitCode = 1;
const socket = connect(socketPath);
socket.on('error', (error) => {
  console.log(`The Flotilla server could not be reached: ${error.message}`);
  process.exit(1);
});
socket.write(
  `${JSON.stringify({
    token: process.env.FLOTILLA_GIT_HOOK_TOKEN ?? '',
    quarantine: process.env.GIT_QUARANTINE_PATH ?? null,
  })}\n`,
);
process.stdin.pipe(socket);

// One JSON message a line: a log line to show, or the exit code.
let pending = '';
socket.setEncoding('utf8');
socket.on('data', (text) => {
  const lines = `${pending}${text}`.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) {
    const message = JSON.parse(line);
    if (typeof message.line === 'string') process.stdout.write(`${message.line}\n`);
    if (typeof message.exit === 'number') exitCode = message.exit;
  }
});
socket.on('end', () => process.exit(exitCode));
