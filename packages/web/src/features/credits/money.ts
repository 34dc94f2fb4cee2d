// Cents as dollars, the way prices are shown in the console ($1,234.50).
export const dollars = (cents: number): string =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

// A quantity input's text as a whole number: digits only, 0 when empty, at most `max`.
export const wholeNumber = (text: string, max: number): number => {
  const digits = text.replace(/\D/g, '');
  return digits === '' ? 0 : Math.min(Number(digits), max);
};
