// The respondent form's part of the screening (domain/screening): the honeypot and the signed
// instant the page was drawn, written into every page's form, and what a post brings back.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../context.js';
import type { Collector } from '../../domain/collectors/collectors.js';
import type { PageIn } from '../../domain/responses/answers.js';
import type { Respondent } from '../../domain/responses/flow.js';
import { CAPTCHA_WIDGETS } from '../../domain/screening/captcha.js';
import {
  type Held,
  HONEYPOT_FIELD,
  type PostSignals,
  type RespondentRecord,
  SHOWN_FIELD,
  screeningOf,
  screenPage,
  shownStamp,
} from '../../domain/screening/screen.js';
import { randomToken, sha256 } from '../../platform/secrets.js';
import { type Html, html } from '../html.js';
import type { Form } from './form-answers.js';
import { csrfToken, readCookie, setCookie } from './session.js';

export { respondentRecord, respondentResponse } from '../../domain/screening/screen.js';

/** The fields every respondent page's form carries (the honeypot is off-screen, out of the tab
 * order and hidden from assistive technology: no person fills it), and the CAPTCHA's widget when
 * the operator configured one (its script adds the token field; without JavaScript there is none,
 * which is never held against the respondent). */
export function screeningFields(deps: Deps, stamps: FormStamps, pageId: string): Html {
  return html`<input type="hidden" name="${SHOWN_FIELD}" value="${stamps.shown(pageId)}">
<div class="visually-hidden" aria-hidden="true"><label for="${HONEYPOT_FIELD}">Leave this field empty</label><input type="text" id="${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" value="" tabindex="-1" autocomplete="off"></div>${captchaWidget(deps)}`;
}

/** The respondent's own values a page's form carries: its CSRF token and the signed instant a
 * page was drawn (the kept pages of page-cache.ts fill them in per respondent). */
export interface FormStamps {
  csrf: string;
  shown: (pageId: string) => string;
}

/** A session's form stamps, drawn now. */
export function stampsOf(deps: Deps, session: string): FormStamps {
  return { csrf: csrfToken(deps, session), shown: (pageId) => shownStamp(deps, sha256(session), pageId) };
}

function captchaWidget(deps: Deps): Html | '' {
  const captcha = deps.config.captcha;
  if (!captcha) return '';
  const widget = CAPTCHA_WIDGETS[captcha.provider];
  return html`
<div class="${widget.className}" data-sitekey="${captcha.siteKey}"></div><script src="${widget.script}" async defer></script>`;
}

/** What a page post says besides its answers; on a collector with one response per browser, the
 * browser's long-lived cookie (set on its first post). */
export function screeningSignals(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  collector: Collector,
  path: string,
  form: Form,
): PostSignals {
  const screening = screeningOf(collector.options);
  let browserKey: string | null = null;
  if (screening.duplicates === 'browser') {
    const name = `sb${collector.id}`;
    let browser = readCookie(request, name);
    if (!browser) {
      browser = randomToken(24);
      setCookie(deps, reply, name, browser, path, screening.window_hours * 3600);
    }
    browserKey = sha256(browser);
  }
  const captcha = deps.config.captcha;
  return {
    honeypot: form[HONEYPOT_FIELD],
    shown: form[SHOWN_FIELD],
    browserKey,
    captcha: captcha ? form[CAPTCHA_WIDGETS[captcha.provider].field] : undefined,
  };
}

/** Screens a page post (domain/screening): null when it counts, else where the respondent goes. */
export function screenPost(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  respondent: Respondent,
  record: RespondentRecord,
  page: PageIn,
  form: Form,
): Promise<Held | null> {
  // the survey's own path (/r/<token>), where its cookies live
  const path = request.url.split('?')[0];
  const signals = screeningSignals(deps, request, reply, respondent.collector, path, form);
  const started = typeof form.started === 'string' ? form.started : undefined;
  return screenPage(deps, respondent, record, page, started, signals);
}
