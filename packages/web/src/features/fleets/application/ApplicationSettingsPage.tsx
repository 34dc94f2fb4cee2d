import { ApplicationSettings } from './ApplicationSettings.js';
import { useApplicationContext } from './useApplicationContext.js';

// /{class}s/:applicationId/settings
export const ApplicationSettingsPage = () => {
  const { application } = useApplicationContext();
  return <ApplicationSettings application={application} />;
};
