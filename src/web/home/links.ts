// The links of a survey's pages (preview, edit, collect, analyze, summary) as paths on this site:
// the same URLs the API answers (src/api/v3/surveys/present.ts), without a host.

import type { SurveyRow } from '../../domain/surveys/access.js';
import { surveyUrls } from '../../domain/surveys/urls.js';

export function surveyLinks(s: Pick<SurveyRow, 'preview_token' | 'manage_token'>) {
  return surveyUrls('', s);
}
