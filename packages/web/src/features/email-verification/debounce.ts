export type Debounced = {
  // Runs the action once `ms` after the last call (a burst of calls runs it once).
  call(): void;
  cancel(): void;
};

export const debounce = (action: () => void, ms: number): Debounced => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        action();
      }, ms);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
};
