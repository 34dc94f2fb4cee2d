import { useOutletContext } from 'react-router';
import type { ApplicationDetail } from './application-detail.js';

export type ApplicationContext = { application: ApplicationDetail };

// The application loaded by ApplicationLayout, for its child pages.
export const useApplicationContext = (): ApplicationContext =>
  useOutletContext<ApplicationContext>();
