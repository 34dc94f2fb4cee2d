// Waits on a condition the code under test reaches asynchronously (a notification, a socket
// message, a background write). The deadline only bounds a broken test: on a busy machine a step
// can take seconds, and each wait ends as soon as its condition holds.
const defaultTimeoutMs = 20_000;
const pollEveryMs = 20;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const waitFor = async (
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = defaultTimeoutMs,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(pollEveryMs);
  }
};

// Reads until the value read satisfies done, and returns that value.
export const waitForValue = async <T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = defaultTimeoutMs,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(pollEveryMs);
  }
};
