// The page frame every server-rendered page shares: language, viewport, title, the one stylesheet
// (public/app.css) and script (public/app.js), and one of three headers:
//   - the public header (signed-out pages: sign in, API docs),
//   - the workspace header of signed-in pages (Surveys, Contacts, Team, Account, and Developer/Operator
//     only for those who use them, then "Sign out"): `workspacePage`,
//   - the respondent's header (the survey's title and logo, no links): `respondentHeader`.
// Survey pages add `surveyHeader`, which links a survey's pages to each other.
import type { FastifyReply } from 'fastify';
import type { Deps } from '../context.js';
import { type User, workspaceRoles } from '../domain/accounts/users.js';
import { surveyUrls } from '../domain/surveys/urls.js';
import { type Html, html } from './html.js';
import { csrfToken } from './session.js';

export interface PageOptions {
  lang?: string;
  /** The script's direction (right-to-left for Arabic, Hebrew...; the stylesheet mirrors). */
  dir?: 'ltr' | 'rtl';
  /** The skip link's words in the page's language. */
  skipText?: string;
  /** The header above the page (default: the public header). */
  header?: Html;
  /** A narrow column for short forms (sign-in, confirmations). */
  narrow?: boolean;
  /** Extra scripts from /assets (e.g. '/assets/vendor/sortable.min.js'), loaded deferred. */
  scripts?: string[];
  /** Extra stylesheets after app.css (a survey's colour on respondent pages). */
  styles?: string[];
  /** Extra tags in <head> (a respondent page's sharing tags). */
  head?: Html;
}

const PUBLIC_HEADER = html`<header class="site"><a class="brand" href="/">Survey Service</a>
<nav aria-label="Site"><ul><li><a href="/login">Sign in</a></li><li><a href="/docs">API docs</a></li></ul></nav></header>`;

export function page(title: string, body: Html | Html[], options: PageOptions = {}): string {
  const scripts = ['/assets/app.js', ...(options.scripts ?? [])];
  return html`<!doctype html>
<html lang="${options.lang ?? 'en'}"${options.dir === 'rtl' ? html` dir="rtl"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Survey Service</title>
<link rel="stylesheet" href="/assets/app.css">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
${(options.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}
${scripts.map((src) => html`<script src="${src}" defer></script>`)}
${options.head ?? ''}
</head>
<body>
<a class="skip-link" href="#main">${options.skipText ?? 'Skip to content'}</a>
${options.header ?? PUBLIC_HEADER}
<main id="main"${options.narrow ? html` class="narrow"` : ''}>
${body}
</main>
</body>
</html>`.value;
}

export type Section = 'surveys' | 'contacts' | 'team' | 'account' | 'developer' | 'operator' | 'integrations';

function navLink(href: string, label: string, section: Section, current: Section | undefined): Html {
  return html`<li><a href="${href}"${section === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
}

/** The header of every signed-in page. */
export async function workspaceHeader(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  current?: Section,
): Promise<Html> {
  const roles = await workspaceRoles(deps, user.id);
  return html`<header class="site"><a class="brand" href="/">Survey Service</a>
<nav aria-label="Workspace"><ul>
${navLink('/', 'Surveys', 'surveys', current)}
${navLink('/contacts', 'Contacts', 'contacts', current)}
${navLink('/team', 'Team', 'team', current)}
${navLink('/account', 'Account', 'account', current)}
${navLink('/integrations', 'Integrations', 'integrations', current)}
${roles.developer ? navLink('/developer/apps', 'Developer', 'developer', current) : ''}
${roles.operator ? navLink('/operator/apps', 'Operator', 'operator', current) : ''}
</ul></nav>
<div class="account"><span class="who">${user.username}</span>
<form method="post" action="/logout" class="inline"><input type="hidden" name="_csrf" value="${await csrfToken(deps, reply)}"><button type="submit" class="secondary">Sign out</button></form></div>
</header>`;
}

/** A signed-in page: the workspace header, then `body`. */
export async function workspacePage(
  deps: Deps,
  reply: FastifyReply,
  user: User,
  title: string,
  body: Html,
  options: Omit<PageOptions, 'header'> & { section?: Section } = {},
): Promise<string> {
  return page(title, body, { ...options, header: await workspaceHeader(deps, reply, user, options.section) });
}

/** The respondent's header: the survey's logo and title, and nothing that leads away from it. */
export function respondentHeader(survey: { title: string; logoUrl?: string | null }): Html {
  return html`<header class="site respondent">${
    survey.logoUrl ? html`<img class="survey-logo" src="${survey.logoUrl}" alt="">` : ''
  }<span class="brand">${survey.title}</span></header>`;
}

export type SurveyTab = 'edit' | 'preview' | 'collect' | 'analyze' | 'summary' | 'responses';

/** The pages of one survey, as paths on this site (the same URLs the API answers, without a host). */
export function surveyPaths(s: { manage_token: string; preview_token: string }): Record<SurveyTab, string> {
  const urls = surveyUrls('', s);
  return {
    edit: urls.edit_url,
    preview: urls.preview,
    collect: urls.collect_url,
    analyze: urls.analyze_url,
    summary: urls.summary_url,
    responses: `${urls.analyze_url}/responses`,
  };
}

const TABS: [SurveyTab, string][] = [
  ['edit', 'Design'],
  ['preview', 'Preview'],
  ['collect', 'Collect'],
  ['analyze', 'Analyze'],
  ['summary', 'Summary'],
  ['responses', 'Responses'],
];

/** The head of every page of one survey: its title and links to its other pages. */
export function surveyHeader(
  s: { title: string; manage_token: string; preview_token: string },
  current: SurveyTab | null,
): Html {
  const paths = surveyPaths(s);
  return html`<div class="survey-head"><p class="muted small"><a href="/">Surveys</a></p>
<h1>${s.title || 'Untitled survey'}</h1>
<nav class="survey-tabs" aria-label="Survey pages"><ul>${TABS.map(
    ([tab, label]) =>
      html`<li><a href="${paths[tab]}"${tab === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav></div>`;
}
