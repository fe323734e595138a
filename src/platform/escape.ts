// The one HTML escaper: pages (web/html.ts) and the invitation mailer (domain/invitations) both
// put user text into markup, so both escape it alike. Safe in text and in quoted attributes.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
