// The page session moved to test/helpers/fixtures.ts; this name stays for the files still importing it.
export { type WebResponse, WebSession } from '../helpers/fixtures.js';
