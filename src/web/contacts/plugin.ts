// The Contacts pages (/contacts): address book, lists, custom fields, CSV import and export.
import type { Deps } from '../../context.js';
import { pageArea } from '../page-area.js';
import { contactRoutes } from './contacts.js';
import { importRoutes } from './import.js';
import { listRoutes } from './lists.js';

export function contactPages(deps: Deps) {
  return pageArea('contact-pages', deps, [importRoutes, contactRoutes, listRoutes]);
}
