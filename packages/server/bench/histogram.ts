// Latencies recorded into log-linear buckets (in the manner of HdrHistogram): exact below 128 µs,
// then 64 buckets per power of two, so a percentile is within 1.6% of the true value whatever the
// range, the memory is fixed and two histograms merge by adding counts (rounds, workers).

const linearLimit = 128;
const subBuckets = 64;
// Enough buckets for latencies up to 2^37 µs (38 hours).
const bucketCount = linearLimit + 31 * subBuckets;

export type Histogram = {
  counts: Float64Array;
  total: number;
  sumMicros: number;
  maxMicros: number;
};

// A histogram as it travels over IPC: [bucket, count] pairs of the non-empty buckets.
export type HistogramSnapshot = {
  buckets: [number, number][];
  total: number;
  sumMicros: number;
  maxMicros: number;
};

export const createHistogram = (): Histogram => ({
  counts: new Float64Array(bucketCount),
  total: 0,
  sumMicros: 0,
  maxMicros: 0,
});

export const bucketOf = (micros: number): number => {
  const value = Math.max(0, Math.floor(micros));
  if (value < linearLimit) return value;
  const exponent = Math.floor(Math.log2(value)) - 6;
  const mantissa = Math.floor(value / 2 ** exponent);
  return Math.min(bucketCount - 1, linearLimit + (exponent - 1) * subBuckets + (mantissa - 64));
};

// The smallest and largest value (µs) a bucket holds.
export const bucketRange = (bucket: number): [number, number] => {
  if (bucket < linearLimit) return [bucket, bucket];
  const exponent = Math.floor((bucket - linearLimit) / subBuckets) + 1;
  const mantissa = ((bucket - linearLimit) % subBuckets) + 64;
  return [mantissa * 2 ** exponent, (mantissa + 1) * 2 ** exponent - 1];
};

export const recordMillis = (histogram: Histogram, millis: number): void => {
  const micros = millis * 1000;
  const bucket = bucketOf(micros);
  histogram.counts[bucket] = (histogram.counts[bucket] ?? 0) + 1;
  histogram.total += 1;
  histogram.sumMicros += micros;
  histogram.maxMicros = Math.max(histogram.maxMicros, micros);
};

// Nearest-rank percentile (p in 0..100) in milliseconds: the middle of the bucket holding the
// rank-th smallest value, never above the largest value seen. NaN when empty.
export const percentileMillis = (histogram: Histogram, p: number): number => {
  if (histogram.total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * histogram.total));
  let seen = 0;
  for (let bucket = 0; bucket < bucketCount; bucket++) {
    seen += histogram.counts[bucket] ?? 0;
    if (seen >= rank) {
      const [low, high] = bucketRange(bucket);
      return Math.min((low + high) / 2, histogram.maxMicros) / 1000;
    }
  }
  return histogram.maxMicros / 1000;
};

export const meanMillis = (histogram: Histogram): number =>
  histogram.total === 0 ? Number.NaN : histogram.sumMicros / histogram.total / 1000;

export const snapshot = (histogram: Histogram): HistogramSnapshot => {
  const buckets: [number, number][] = [];
  histogram.counts.forEach((count, bucket) => {
    if (count > 0) buckets.push([bucket, count]);
  });
  return {
    buckets,
    total: histogram.total,
    sumMicros: histogram.sumMicros,
    maxMicros: histogram.maxMicros,
  };
};

export const fromSnapshot = (data: HistogramSnapshot): Histogram => {
  const histogram = createHistogram();
  for (const [bucket, count] of data.buckets) histogram.counts[bucket] = count;
  histogram.total = data.total;
  histogram.sumMicros = data.sumMicros;
  histogram.maxMicros = data.maxMicros;
  return histogram;
};

export const merge = (into: Histogram, from: Histogram): void => {
  from.counts.forEach((count, bucket) => {
    into.counts[bucket] = (into.counts[bucket] ?? 0) + count;
  });
  into.total += from.total;
  into.sumMicros += from.sumMicros;
  into.maxMicros = Math.max(into.maxMicros, from.maxMicros);
};
