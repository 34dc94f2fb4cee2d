import { DeviceSection } from '../../device/DeviceSection.js';
import { LocationEditor } from './LocationEditor.js';

// /devices/:uuid/location.
export const DeviceLocationPage = () => (
  <DeviceSection title="Location">
    {(device) => (
      <LocationEditor
        key={`${device.id}:${device.custom_latitude}:${device.custom_longitude}`}
        device={device}
      />
    )}
  </DeviceSection>
);
