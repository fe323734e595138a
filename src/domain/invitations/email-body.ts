// What one recipient receives: SurveyMonkey's merge fields filled in the subject and both bodies
// (values escaped in HTML), and an HTML part in a small inline-styled layout beside the text part,
// whether the message was written as HTML or as text.
import { escapeHtml } from '../../platform/escape.js';

/** The recipient's own values: `[FirstName]`, `[LastName]`, `[Email]`, `[CustomData1]`…`[CustomData6]`. */
export interface MergeValues {
  first_name: string;
  last_name: string;
  email: string;
  /** custom fields by slot "1".."6" */
  custom: Record<string, string>;
}

export interface MessageLinks {
  survey: string;
  optOut: string;
  privacy: string;
  footer: string;
  /** the one-click unsubscribe link (also in List-Unsubscribe), shown in the service's footer */
  unsubscribe?: string;
  /** the operator's abuse contact (ABUSE_CONTACT), shown in the service's footer */
  abuse?: string;
}

/** The look of the HTML part: the survey's theme (`domain/themes`), else its older theme_color. */
export interface EmailTheme {
  accent: string;
  /** Text on the accent (the theme's contrast-checked button text); white when absent. */
  onAccent?: string;
  fontStack?: string;
  logoUrl?: string | null;
}

export const DEFAULT_THEME: EmailTheme = { accent: '#1f6f5c' };

/** The accent a survey's stored theme_color gives, if it is a plain hex colour (it goes in a style). */
export function themeFor(themeColor: string | null | undefined): EmailTheme {
  return themeColor && /^#[0-9a-f]{6}$/i.test(themeColor) ? { accent: themeColor } : DEFAULT_THEME;
}

const FOOTER_TEXT = 'Sent with Survey Service';
const PLACEHOLDER_KEYS = [
  ['[SurveyLink]', 'survey'],
  ['[OptOutLink]', 'optOut'],
  ['[PrivacyLink]', 'privacy'],
] as const;

/**
 * `template` with every merge field filled. `mode`: 'text' (values as they are), 'html' (the owner
 * wrote HTML: values escaped, links as bare URLs for their href), 'text-html' (a text template shown
 * as HTML: escaped, each link placeholder an anchor).
 */
export function mergeFields(
  template: string,
  values: MergeValues,
  links: MessageLinks,
  mode: 'text' | 'html' | 'text-html',
): string {
  const esc = (s: string) => (mode === 'text' ? s : escapeHtml(s));
  let out = mode === 'text-html' ? escapeHtml(namesOrNot(template, values)) : namesOrNot(template, values);
  for (const [token, key] of PLACEHOLDER_KEYS)
    out = out.replaceAll(
      token,
      mode === 'text-html'
        ? `<a href="${escapeHtml(links[key])}">${escapeHtml(links[key])}</a>`
        : esc(links[key]),
    );
  out = out.replaceAll(
    '[FooterLink]',
    mode === 'text' ? FOOTER_TEXT : `<a href="${escapeHtml(links.footer)}">${FOOTER_TEXT}</a>`,
  );
  out = out
    .replaceAll('[FirstName]', esc(values.first_name))
    .replaceAll('[LastName]', esc(values.last_name))
    .replaceAll('[Email]', esc(values.email));
  for (let i = 1; i <= 6; i++) out = out.replaceAll(`[CustomData${i}]`, esc(values.custom[String(i)] ?? ''));
  return out.replaceAll('{{EmbeddedBody}}', '').replaceAll('{{FirstQuestion}}', '');
}

/** An empty name field goes with the space before it, so "Hi [FirstName]," reads "Hi," for a
 * recipient (or an owner previewing) with no first name, never "Hi ,". */
function namesOrNot(template: string, values: MergeValues): string {
  let out = template;
  if (!values.last_name.trim()) out = out.replace(/[ \t]*\[LastName\]/g, '');
  if (!values.first_name.trim()) out = out.replace(/[ \t]*\[FirstName\]/g, '');
  return out;
}

/** The subject with the recipient's merge fields (a header: no HTML, no line breaks). */
export function mergeSubject(subject: string, values: MergeValues, links: MessageLinks): string {
  return mergeFields(subject, values, links, 'text').replace(/[\r\n]+/g, ' ');
}

/** The inside of an HTML document's body (an owner's body_html may be a whole document). */
function bodyOf(doc: string): string {
  const m = /<body[^>]*>([\s\S]*)<\/body>/i.exec(doc);
  return (m ? m[1] : doc).trim();
}

/** Inline styles on the owner's links, buttons for the survey link (mail clients drop <style>). */
function styleLinks(inner: string, theme: EmailTheme, surveyUrl: string): string {
  const survey = escapeHtml(surveyUrl);
  return inner.replace(/<a (?![^>]*style=)([^>]*?)href="([^"]*)"([^>]*)>/gi, (_all, pre, href, post) =>
    href === survey
      ? `<a ${pre}href="${href}"${post} style="display:inline-block;padding:12px 20px;background:${theme.accent};color:${theme.onAccent ?? '#ffffff'};text-decoration:none;border-radius:6px;font-weight:bold">`
      : `<a ${pre}href="${href}"${post} style="color:${theme.accent}">`,
  );
}

/** The theme's font stack for a style attribute: unquoted (a family name of plain words needs no
 * quotes in CSS), so no entity has to survive an email client. */
function fontFamily(theme: EmailTheme): string {
  return escapeHtml((theme.fontStack ?? 'Arial,Helvetica,sans-serif').replace(/["']/g, ''));
}

/** The service's own footer under every invitation, whatever the owner wrote: how to stop these
 * emails and where to report abuse (the operator's contact), as text lines. */
function serviceFooter(links: MessageLinks): string[] {
  const lines: string[] = [];
  if (links.unsubscribe) lines.push(`Unsubscribe: ${links.unsubscribe}`);
  if (links.abuse) lines.push(`Report abuse: ${links.abuse}`);
  return lines;
}

function serviceFooterHtml(links: MessageLinks): string {
  const items: string[] = [];
  if (links.unsubscribe)
    items.push(`<a href="${escapeHtml(links.unsubscribe)}" style="color:#4a5560">Unsubscribe</a>`);
  if (links.abuse)
    items.push(
      `Report abuse: <a href="mailto:${escapeHtml(links.abuse)}" style="color:#4a5560">${escapeHtml(links.abuse)}</a>`,
    );
  return items.length
    ? `<p style="margin:16px 0 0;font-size:13px;color:#4a5560;text-align:center">${items.join(' · ')}</p>`
    : '';
}

/** The whole HTML part: a narrow, readable, single-column layout with inline styles. */
export function emailLayout(
  inner: string,
  subject: string,
  theme: EmailTheme,
  lang = 'en',
  footer = '',
): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f5f7">
<div role="article" aria-label="${escapeHtml(subject)}" style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:${fontFamily(theme)};font-size:16px;line-height:1.5;color:#1d2228">
<div style="background:#ffffff;border-top:4px solid ${theme.accent};border-radius:6px;padding:24px">
${theme.logoUrl ? `<img src="${escapeHtml(theme.logoUrl)}" alt="" style="max-height:64px;max-width:240px;margin-bottom:16px">\n` : ''}${inner}
</div>
${footer}</div>
</body></html>`;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Subject, text part and HTML part of one message for one recipient. */
export function renderInvitation(
  message: { subject: string; body_text: string | null; body_html: string | null },
  values: MergeValues,
  links: MessageLinks,
  theme: EmailTheme = DEFAULT_THEME,
): RenderedEmail {
  const subject = mergeSubject(message.subject, values, links);
  let inner: string;
  let text: string;
  if (message.body_html !== null) {
    inner = styleLinks(bodyOf(mergeFields(message.body_html, values, links, 'html')), theme, links.survey);
    text = message.body_text !== null ? mergeFields(message.body_text, values, links, 'text') : textOf(inner);
  } else {
    const template = message.body_text ?? '';
    text = mergeFields(template, values, links, 'text');
    inner = styleLinks(
      template
        .split(/\r?\n\s*\r?\n/)
        .map((p) => textParagraph(p.trim(), values, links, theme))
        .join('\n'),
      theme,
      links.survey,
    );
  }
  const footer = serviceFooter(links);
  if (footer.length) text = `${text}\n\n--\n${footer.join('\n')}`;
  return { subject, text, html: emailLayout(inner, subject, theme, 'en', serviceFooterHtml(links)) };
}

/** A short lead-in before the survey link ("Begin Survey: [SurveyLink]") names its button. */
const BUTTON_LABEL = /^((?:[^\s.!?:]+ ?){1,4}?)\s*:$/;

/**
 * One paragraph of a text message as HTML. A line that ends with [SurveyLink] shows the link as a
 * button (named by a short lead-in such as "Begin Survey:", else "Take the survey") with the
 * address below it as a fallback for mail clients that do not show buttons.
 */
function textParagraph(p: string, values: MergeValues, links: MessageLinks, theme: EmailTheme): string {
  const merge = (t: string) => mergeFields(t, values, links, 'text-html');
  const lines: string[] = [];
  let fallback = false;
  for (const line of p.split(/\r?\n/)) {
    const at = line.trimEnd().endsWith('[SurveyLink]')
      ? line.trimEnd().slice(0, -'[SurveyLink]'.length).trim()
      : null;
    if (at === null) {
      lines.push(merge(line));
      continue;
    }
    const named = BUTTON_LABEL.exec(at);
    if (at && !named) lines.push(merge(at));
    lines.push(
      `<a href="${escapeHtml(links.survey)}">${named ? merge(named[1].trim()) : 'Take the survey'}</a>`,
    );
    fallback = true;
  }
  const link = escapeHtml(links.survey);
  return `<p>${lines.join('<br>')}</p>${
    fallback
      ? `\n<p style="font-size:14px;color:#4a5560">If the button does not work, copy this address into your browser: <a href="${link}" style="color:${theme.accent};word-break:break-all">${link}</a></p>`
      : ''
  }`;
}

/** Plain text of an HTML body, for the text part. */
export function textOf(htmlBody: string): string {
  return htmlBody
    .replace(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/gi, (_all, href: string, label: string) =>
      label.trim() === href ? href : `${label}: ${href}`,
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
