// Types for the Prometheus text-format parser tests read /metrics with (the package ships none):
// one entry per metric family, as prom2json prints it.
declare module 'parse-prometheus-text-format' {
  export type PrometheusSample = {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type PrometheusFamily = {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  };
  const parsePrometheusTextFormat: (text: string) => PrometheusFamily[];
  // eslint-disable-next-line no-restricted-syntax -- the package itself exports a default function
  export default parsePrometheusTextFormat;
}
