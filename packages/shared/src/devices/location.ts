// Custom device location: latitude and longitude in decimal degrees,
// stored as text (balena's SDK sends strings); an empty value or null unsets it.

export type Coordinate = 'latitude' | 'longitude';

const bounds: Record<Coordinate, number> = { latitude: 90, longitude: 180 };

// Why `value` is not a coordinate of the kind, or null when it is one.
export const coordinateProblem = (kind: Coordinate, value: string): string | null => {
  const text = value.trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return `The ${kind} must be a number`;
  const number = Number(text);
  const bound = bounds[kind];
  if (number < -bound || number > bound) {
    return `The ${kind} must be between -${bound} and ${bound}`;
  }
  return null;
};

// The location a device is shown at: the custom one when both parts are set, else the one it
// reported (geo-determined); null when neither is complete.
export const effectiveLocation = (device: {
  latitude: string | null;
  longitude: string | null;
  custom_latitude: string | null;
  custom_longitude: string | null;
}): { latitude: number; longitude: number; source: 'custom' | 'reported' } | null => {
  const parse = (latitude: string | null, longitude: string | null) => {
    if (latitude === null || longitude === null || latitude === '' || longitude === '') return null;
    if (coordinateProblem('latitude', latitude) || coordinateProblem('longitude', longitude)) {
      return null;
    }
    return { latitude: Number(latitude), longitude: Number(longitude) };
  };
  const custom = parse(device.custom_latitude, device.custom_longitude);
  if (custom) return { ...custom, source: 'custom' };
  const reported = parse(device.latitude, device.longitude);
  return reported ? { ...reported, source: 'reported' } : null;
};
