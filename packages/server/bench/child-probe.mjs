// Preloaded (node --import) into every server process the bench starts, Flotilla's built
// server included, so the product needs no bench-only route: on {type: 'bench:gc'} over the IPC
// channel it runs full collections (node --expose-gc) and answers; the orchestrator then reads
// the process's VmRSS from /proc. When the orchestrator goes away, the server goes too.
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

process.on('message', (message) => {
  if (message?.type !== 'bench:gc') return;
  void collect().then(() => process.send?.({ type: 'bench:gc-done' }));
});
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
