// What a respondent beyond a full quota sees (domain/quotas): the quota's end message or a redirect
// to the quota's address. The disqualify action ends as a disqualified response does (the flow
// answers it as such); closing the collector is done by the domain, and that respondent is shown
// the quota's message.
import type { FastifyReply } from 'fastify';
import { DEFAULT_QUOTA_MESSAGE, type Quota } from '../../domain/quotas/quotas.js';
import { translator } from '../../platform/i18n/index.js';
import { type Html, html } from '../html.js';

export function quotaEnd(
  reply: FastifyReply,
  quota: Quota,
  survey: { title: string; language: string },
  page: (title: string, body: Html) => FastifyReply,
): FastifyReply {
  const a = quota.action;
  if (a.type === 'redirect' && a.url) return reply.redirect(a.url, 303);
  // the survey as shown, so in the page's language
  const t = translator(survey.language);
  // the default words are the service's, in the page's language; an owner's own stay as written
  const message = !a.message || a.message === DEFAULT_QUOTA_MESSAGE ? t('quota_full') : a.message;
  return page(
    t('thank_you_title', { title: survey.title }),
    html`<h1>${survey.title}</h1><div role="status" class="thank-you overquota"><p>${message}</p></div>`,
  );
}
