// The words of a response alert or a daily digest: a plain-text part and an HTML part in the
// survey's theme (the invitation emails' layout, domain/invitations/email-body.ts): what happened,
// the first answers of the response, a button to the response (or the results) and how to stop.
import { escapeHtml } from '../../platform/escape.js';
import { type EmailTheme, emailLayout } from '../invitations/email-body.js';
import { surveyUrls } from '../surveys/urls.js';
import type { ResponseSummary } from './response-summary.js';

type What = { kind: 'each'; at: string; response?: ResponseSummary } | { kind: 'daily'; count: number };

const button = (href: string, label: string, theme: EmailTheme) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;background:${theme.accent};color:${theme.onAccent ?? '#ffffff'};text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(label)}</a></p>`;

export function alertEmailParts(
  base: string,
  survey: { title: string; manage_token: string; preview_token: string },
  theme: EmailTheme,
  what: What,
): { subject: string; text: string; html: string } {
  const results = surveyUrls(base, survey).analyze_url;
  const account = `${base}/account`;
  const title = survey.title;
  const text: string[] = [];
  const inner: string[] = [];
  let subject: string;
  let link: { href: string; label: string };
  if (what.kind === 'each') {
    const r = what.response;
    const when = `${what.at.slice(0, 16).replace('T', ' ')} UTC`;
    subject = `New response: ${title}`;
    const line = `A response${r ? ` (#${r.ordinal})` : ''} to "${title}" was completed at ${when}.`;
    text.push(line);
    inner.push(`<h1 style="margin:0 0 12px;font-size:20px">New response to ${escapeHtml(title)}</h1>`);
    inner.push(`<p>${escapeHtml(line)}</p>`);
    if (r?.answers.length) {
      text.push('');
      for (const a of r.answers) text.push(`${a.question}\n  ${a.answer}`);
      if (r.more) text.push('…');
      inner.push(
        `<dl style="margin:16px 0;padding:0">${r.answers
          .map(
            (a) =>
              `<dt style="font-weight:bold;margin:12px 0 2px">${escapeHtml(a.question)}</dt><dd style="margin:0 0 0 0;padding-left:12px;border-left:3px solid ${theme.accent}">${escapeHtml(a.answer)}</dd>`,
          )
          .join(
            '',
          )}</dl>${r.more ? '<p style="color:#4a5560">More answers are on the response page.</p>' : ''}`,
      );
    }
    link = r ? { href: r.url, label: 'View the response' } : { href: results, label: 'See the results' };
  } else {
    const n = what.count;
    subject = `Daily digest: ${title}`;
    const line = `${n} response${n === 1 ? ' was' : 's were'} completed for "${title}" in the last day.`;
    text.push(line);
    inner.push(`<h1 style="margin:0 0 12px;font-size:20px">Daily digest: ${escapeHtml(title)}</h1>`);
    inner.push(`<p>${escapeHtml(line)}</p>`);
    link = { href: results, label: 'See the results' };
  }
  text.push('', `${link.label}: ${link.href}`);
  if (link.href !== results) text.push(`All results: ${results}`);
  text.push('', `Stop these emails: ${account} (or the survey's alert setting).`);
  inner.push(button(link.href, link.label, theme));
  inner.push(
    `<p style="font-size:14px;color:#4a5560">If the button does not work, paste this link into your browser: <a href="${escapeHtml(link.href)}" style="color:${theme.accent};word-break:break-all">${escapeHtml(link.href)}</a></p>`,
  );
  if (link.href !== results)
    inner.push(`<p><a href="${escapeHtml(results)}" style="color:${theme.accent}">All results</a></p>`);
  const footer = `<p style="margin:16px 0 0;font-size:13px;color:#4a5560;text-align:center"><a href="${escapeHtml(account)}" style="color:#4a5560">Stop these emails</a> on your account page, or change the survey's alert setting.</p>`;
  return {
    subject,
    text: text.join('\n'),
    html: emailLayout(inner.join('\n'), subject, theme, 'en', footer),
  };
}
