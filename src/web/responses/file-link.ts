// A file-upload answer on the owner's pages: the file's name, linking to its access-checked download.
import type { Answer } from '../../domain/responses/answers.js';
import { type Html, html } from '../html.js';

export function fileLink(manageToken: string, a: Answer): Html {
  return html`<a class="file-link" href="/analyze/${manageToken}/files/${a.upload_id ?? ''}" download>${a.text || 'Uploaded file'}</a>`;
}
