// Preloaded (node --import) into every server process the bench starts, Flotilla's built
// server included, so the product needs no bench-only route: on {type: 'bench:gc'} over the IPC
// channel it runs full collections (node --expose-gc) and answers; the orchestrator then reads
// the process's VmRSS from /proc. On {type: 'bench:live-memory'} it collects once and answers the
// bytes still held (heap used + external), which RSS hides behind garbage not yet collected. When the orchestrator goes away, the server goes too.
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

process.on('message', (message) => {
  if (message?.type === 'bench:gc') {
    void collect().then(() => process.send?.({ type: 'bench:gc-done' }));
  } else if (message?.type === 'bench:live-memory') {
    // Two quick full collections (buffers' memory is released by a background sweeper after the
    // first), then what the process still holds: JS heap and buffers.
    globalThis.gc?.();
    setTimeout(() => {
      globalThis.gc?.();
      const usage = process.memoryUsage();
      process.send?.({ type: 'bench:live-memory', bytes: usage.heapUsed + usage.external });
    }, 10);
  }
});
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
