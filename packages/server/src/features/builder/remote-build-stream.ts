import { PassThrough } from 'node:stream';

// What `balena push` reads from the builder (balena-cli's utils/remote-build.js): one JSON array,
// parsed object by object as it arrives. Each message is printed as a line; one with isError makes
// the CLI end with "Remote build failed" (exit 1); the buildLogId metadata names the release, which
// the CLI cancels on Ctrl-C and tags or notes after the build.
export type RemoteBuildMessage =
  { type: 'metadata'; resource: 'buildLogId'; value: string } | { message: string; isError?: true };

export type RemoteBuildStream = {
  stream: PassThrough;
  send(message: RemoteBuildMessage): void;
  end(): void;
};

export const remoteBuildStream = (): RemoteBuildStream => {
  const stream = new PassThrough();
  let separator = '';
  stream.write('[');
  return {
    stream,
    send: (message) => {
      stream.write(`${separator}\n${JSON.stringify(message)}`);
      separator = ',';
    },
    end: () => {
      stream.end('\n]\n');
    },
  };
};
