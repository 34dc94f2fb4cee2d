// Stands in for MUI's `locale/utils/buildFormatNumber` in the console's build
// (scripts/lazy-number-format-plugin.ts): the same formatting, with the `Intl.NumberFormat` made
// when a number is first formatted instead of when the module is evaluated.
export const buildLazyFormatNumber = (locale?: string): ((value: number) => string) => {
  let formatter: Intl.NumberFormat | null | undefined;
  return (value) => {
    if (!Number.isFinite(value)) return String(value);
    if (formatter === undefined) {
      try {
        formatter = new Intl.NumberFormat(locale);
      } catch {
        formatter = null; // An unknown locale: plain numbers, as MUI does.
      }
    }
    return formatter ? formatter.format(value) : String(value);
  };
};

// eslint-disable-next-line no-restricted-syntax -- MUI imports this module's default export.
export default buildLazyFormatNumber;
