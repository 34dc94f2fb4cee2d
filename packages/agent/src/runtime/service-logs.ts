import { between, type Random } from '../clock.js';

type Line = { message: string; isStdErr: boolean };

const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

const int = (random: Random, min: number, max: number): number =>
  Math.floor(between(random, min, max + 1));

const paths = ['/', '/api/status', '/api/readings', '/metrics', '/health', '/static/app.js'];
const agents = ['curl/8.5.0', 'Mozilla/5.0', 'node-fetch/1.0', 'Prometheus/2.53'];

const webLine = (random: Random): Line => {
  const status = random() < 0.93 ? 200 : pick(random, [304, 404, 500]);
  const path = pick(random, paths);
  const ip = `192.168.${int(random, 0, 3)}.${int(random, 2, 250)}`;
  return {
    message: `${ip} - "GET ${path} HTTP/1.1" ${status} ${int(random, 120, 48_000)} "${pick(random, agents)}" ${int(random, 1, 180)}ms`,
    isStdErr: status >= 500,
  };
};

const sensorLine = (random: Random): Line => {
  if (random() < 0.04) {
    return { message: 'WARN mqtt: connection to broker lost, retrying in 5s', isStdErr: true };
  }
  const temperature = between(random, 17, 29).toFixed(1);
  const humidity = int(random, 30, 70);
  return {
    message: `published reading temperature=${temperature}C humidity=${humidity}% pressure=${int(random, 990, 1030)}hPa`,
    isStdErr: false,
  };
};

const databaseLine = (random: Random): Line =>
  pick(random, [
    {
      message: `checkpoint complete: wrote ${int(random, 3, 400)} buffers (${between(random, 0, 3).toFixed(1)}%)`,
      isStdErr: false,
    },
    {
      message: `autovacuum: processed table "readings" (${int(random, 100, 9000)} rows)`,
      isStdErr: false,
    },
    { message: `connection accepted from 172.17.0.${int(random, 2, 9)}`, isStdErr: false },
  ]);

const workerLine = (random: Random): Line => {
  if (random() < 0.03) {
    return {
      message: `error: job ${int(random, 1000, 9999)} failed: timeout after 30000ms, will retry`,
      isStdErr: true,
    };
  }
  return pick(random, [
    {
      message: `processed ${int(random, 1, 60)} jobs in ${between(random, 0.1, 4).toFixed(2)}s`,
      isStdErr: false,
    },
    {
      message: `heartbeat ok, uptime ${int(random, 60, 90_000)}s, rss ${int(random, 20, 180)}MB`,
      isStdErr: false,
    },
    { message: `synced ${int(random, 1, 25)} records with upstream`, isStdErr: false },
  ]);
};

// A believable log line for a service, chosen by what its name suggests it does.
export const serviceLogLine = (serviceName: string, random: Random): Line => {
  const name = serviceName.toLowerCase();
  if (/web|front|http|nginx|proxy|api|ui|server/.test(name)) return webLine(random);
  if (/sensor|temp|mqtt|telemetry|collect|reader|gps/.test(name)) return sensorLine(random);
  if (/db|redis|postgres|influx|mongo|sql|cache/.test(name)) return databaseLine(random);
  return workerLine(random);
};
