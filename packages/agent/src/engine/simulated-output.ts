type Line = { message: string; isStdErr: boolean; timestamp: number };

export type OutputFollower = {
  onLine: (line: string, isStdErr: boolean, timestamp: number) => void;
  onEnd: () => void;
};

// More than a container prints between its start and the agent following it.
const keptLines = 20;

// What a simulated container prints: passed to its followers as it comes. Lines are kept only
// while nobody follows (the agent follows a container once it has seen it run), for the first
// follower: hundreds of devices print all day, and a kept line would outlive its delivery.
export class SimulatedOutput {
  readonly #unread: Line[] = [];
  readonly #followers = new Set<OutputFollower>();

  print(message: string, isStdErr: boolean, timestamp: number): void {
    if (this.#followers.size === 0) {
      this.#unread.push({ message, isStdErr, timestamp });
      if (this.#unread.length > keptLines) this.#unread.shift();
    }
    for (const follower of this.#followers) follower.onLine(message, isStdErr, timestamp);
  }

  // The unread lines from `sinceSeconds` on, then the live ones while `running`; the returned
  // function stops following.
  follow(sinceSeconds: number, follower: OutputFollower, running: boolean): () => void {
    for (const line of this.#unread.splice(0)) {
      if (line.timestamp >= sinceSeconds * 1000) {
        follower.onLine(line.message, line.isStdErr, line.timestamp);
      }
    }
    // The stream of a container that does not run ends after what it printed.
    if (!running) {
      follower.onEnd();
      return () => undefined;
    }
    this.#followers.add(follower);
    return () => this.#followers.delete(follower);
  }

  // The container stopped: every stream of it ends.
  end(): void {
    const followers = [...this.#followers];
    this.#followers.clear();
    for (const follower of followers) follower.onEnd();
  }
}
