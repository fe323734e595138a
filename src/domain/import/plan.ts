// A dry run: what an import would copy and the requests it needs, from the listings alone.
import { CONTACT_STATUSES } from './contacts.js';
import { BULK } from './progress.js';
import { normaliseSourceUrl, RemoteApi } from './remote.js';
import type { ImportOptions } from './run-context.js';
import { Envelope, ListedSurvey, problem } from './source.js';

/** What SurveyMonkey gives a draft app (the kind a person makes for a token): requests a day and a minute. */
export const DRAFT_APP_DAY = 500;
export const DRAFT_APP_MINUTE = 120;

/**
 * The scopes a source token needs, each with the endpoints of the source the importer reads under
 * it (every request is a GET; a token without one of them answers 403 there).
 */
export const SOURCE_SCOPES = [
  { scope: 'users_read', label: 'View Users', endpoints: ['/users/me'] },
  {
    scope: 'surveys_read',
    label: 'View Surveys',
    endpoints: ['/surveys', '/surveys/{id}/details', '/survey_folders'],
  },
  {
    scope: 'collectors_read',
    label: 'View Collectors',
    endpoints: ['/surveys/{id}/collectors', '/collectors/{id}'],
  },
  { scope: 'responses_read', label: 'View Responses', endpoints: ['/surveys/{id}/responses/bulk'] },
  {
    scope: 'responses_read_detail',
    label: 'View Response Details',
    endpoints: ['/surveys/{id}/responses/bulk'],
  },
  {
    scope: 'contacts_read',
    label: 'View Contacts',
    endpoints: [
      '/contact_fields',
      '/contacts',
      '/contacts/{id}',
      '/contact_lists',
      '/contact_lists/{id}/contacts',
    ],
  },
] as const;

export interface DryRun {
  folders: number;
  surveys: number;
  responses: number;
  contacts: number;
  contactLists: number;
  /** Requests a full copy needs (the listing requests of the dry run itself included). */
  requests: number;
  /** Requests the dry run made. */
  requestsMade: number;
  /** Days a full copy takes at the daily budget. */
  days: number;
  /** Days it takes at a draft app's limit (DRAFT_APP_DAY). */
  draftAppDays: number;
}

/**
 * What an import would copy and the requests it needs, from the listings alone (six requests,
 * outside any job's budget: a dry run starts no job).
 */
export async function planImport(options: Omit<ImportOptions, 'owner'>): Promise<DryRun> {
  const sourceUrl = normaliseSourceUrl(options.from);
  let made = 0;
  const api = new RemoteApi(sourceUrl, options.token, {
    budget: { spend: async () => void made++ },
    sleep: options.sleep,
  });
  const [surveys, folders, lists, contacts] = await Promise.all([
    api.read(Envelope, '/surveys?per_page=1000&include=owned,response_count', 'list of surveys'),
    api.read(Envelope, '/survey_folders?per_page=1', 'list of folders'),
    api.read(Envelope, '/contact_lists?per_page=1', 'list of contact lists'),
    Promise.all(
      CONTACT_STATUSES.map((s) => api.read(Envelope, `/contacts?per_page=1&status=${s}`, 'list of contacts')),
    ),
  ]);
  const surveyItems = surveys.data.filter((s): s is ListedSurvey => !problem(ListedSurvey, s));
  const pagesOf = (n: number, per: number) => Math.max(1, Math.ceil(n / per));
  const contactCount = contacts.reduce((n, c) => n + Number(c.total ?? 0), 0);
  const responses = surveyItems.reduce((n, s) => n + Number(s.response_count ?? 0), 0);
  const listCount = Number(lists.total ?? 0);
  // Per survey: details, the collectors list, one GET per collector (assumed one) and the bulk pages.
  const perSurvey = surveyItems.reduce((n, s) => n + 3 + pagesOf(Number(s.response_count ?? 0), BULK), 0);
  const requests =
    1 + // users/me
    1 + // contact fields
    1 + // lists
    CONTACT_STATUSES.length * pagesOf(contactCount, 1000) +
    contactCount + // one GET per contact for its custom fields
    listCount * CONTACT_STATUSES.length + // members
    1 + // folders
    pagesOf(Number(surveys.total ?? 0), 1000) +
    perSurvey;
  return {
    folders: Number(folders.total ?? 0),
    surveys: Number(surveys.total ?? 0),
    responses,
    contacts: contactCount,
    contactLists: listCount,
    requests,
    requestsMade: made,
    days: Math.ceil(requests / Math.max(1, options.dailyBudget)),
    draftAppDays: Math.ceil(requests / DRAFT_APP_DAY),
  };
}
