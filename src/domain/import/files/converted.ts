import type { Skipped } from '../design.js';
export interface ConvertedSurvey {
  id: string; // stable id of the survey in its tool
  details: unknown; // shaped as GET /v3/surveys/{id}/details answers (title, language, pages[].questions[] with family/subtype/headings/answers, logic)
  responses: unknown[]; // shaped as the items of GET /v3/surveys/{id}/responses/bulk (id, date_created, date_modified, response_status, pages[].questions[].answers[] referencing the ids in details)
  skipped: Skipped[]; // everything not carried over (a question type, a logic rule, a setting), with the reason
}
export type FileTool = 'limesurvey' | 'typeform' | 'google-forms' | 'formbricks';
export class BadImportFile extends Error {} // input that is not what the tool exports; message shown to the user
export interface Converter {
  tool: FileTool;
  convert(input: { file: Buffer; responses?: Buffer }): Promise<ConvertedSurvey>;
}
