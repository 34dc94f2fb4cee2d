// Support access as the fleet settings and the device actions both show and pick it.
const pad = (value: number): string => String(value).padStart(2, '0');

// The value of a datetime-local input (local time, minutes).
export const localInputValue = (date: Date): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

// Off without a date, "expires on" while in the future, "expired on" once past.
export const supportAccessText = (until: string | null, now: number): string => {
  if (!until) return 'Support access is off';
  const date = new Date(until);
  return `${date.getTime() > now ? 'Support access expires on' : 'Support access expired on'} ${date.toLocaleString()}`;
};
