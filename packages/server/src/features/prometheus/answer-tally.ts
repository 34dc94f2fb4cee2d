// The request metrics of answers written before the framework (infra/http/fast-answers.ts: the
// 304 polls, most of what a fleet sends). prom-client turns a labels object into a key string on
// every observation; here each route, method and status gets its labels once, and the request
// count is kept as a plain number, added to the counter when it is read (a scrape). The
// duration histogram is still observed per answer, with the same labels object each time.

export type RequestLabels = { readonly route: string; readonly method: string };
export type CountedLabels = RequestLabels & { readonly status: string };

export type AnswerSeries = {
  readonly labels: RequestLabels;
  readonly counted: CountedLabels;
  // Answers not yet added to the counter.
  uncounted: number;
};

export type AnswerTally = {
  // The series of a route, method and status; the same object every time.
  series(route: string, method: string, status: number): AnswerSeries;
  // Hands every series' uncounted answers to `add`, and starts counting from zero again.
  drain(add: (labels: CountedLabels, count: number) => void): void;
};

export const createAnswerTally = (): AnswerTally => {
  // By method, then route, then status: no key string built per answer.
  const byMethod = new Map<string, Map<string, Map<number, AnswerSeries>>>();
  const all: AnswerSeries[] = [];

  const create = (route: string, method: string, status: number): AnswerSeries => {
    const labels = { route, method };
    const created = { labels, counted: { ...labels, status: String(status) }, uncounted: 0 };
    all.push(created);
    return created;
  };

  return {
    series(route, method, status) {
      let byRoute = byMethod.get(method);
      if (!byRoute) {
        byRoute = new Map();
        byMethod.set(method, byRoute);
      }
      let byStatus = byRoute.get(route);
      if (!byStatus) {
        byStatus = new Map();
        byRoute.set(route, byStatus);
      }
      let found = byStatus.get(status);
      if (!found) {
        found = create(route, method, status);
        byStatus.set(status, found);
      }
      return found;
    },
    drain(add) {
      for (const series of all) {
        if (series.uncounted === 0) continue;
        const count = series.uncounted;
        series.uncounted = 0;
        add(series.counted, count);
      }
    },
  };
};
