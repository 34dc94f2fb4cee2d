// "/orgs/12" → 12; anything but a positive integer → null (the screen says so and goes up).
export const idParam = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value) && Number(value) > 0 && Number(value) <= 2_147_483_647
    ? Number(value)
    : null;
