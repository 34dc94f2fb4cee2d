import type { Application } from './application.js';
import type { ToOne } from './field-types.js';

// v7 application_tag.
export type ApplicationTag = {
  id: number;
  application: ToOne<Application>;
  tag_key: string;
  value: string;
};
