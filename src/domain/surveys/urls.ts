// Where a survey's pages live: the five URLs the API reports (on the host that was called) and the pages
// link to (base ''). The respondent-facing preview carries the preview token, the owner's pages the
// manage token.
import type { SurveyRow } from './access.js';

export function surveyUrls(base: string, s: Pick<SurveyRow, 'preview_token' | 'manage_token'>) {
  return {
    preview: `${base}/r/Preview/?sm=${s.preview_token}`,
    edit_url: `${base}/create/?sm=${s.manage_token}`,
    collect_url: `${base}/collect/list?sm=${s.manage_token}`,
    analyze_url: `${base}/analyze/${s.manage_token}`,
    summary_url: `${base}/summary/${s.manage_token}`,
  };
}
