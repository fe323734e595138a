// The contract between the file importer and each tool's converter: a converter reads a tool's
// export (a survey definition file, and optionally its responses) and answers the survey as this
// service's API would present it; the file source (file-source.ts) serves that as SurveyMonkey v3
// JSON to the importer, whose phases, dry run, report and resumability are the API import's.
import type { Skipped } from '../design.js';
/** A survey read from another tool's export, as this service's API would present it. */
export interface ConvertedSurvey {
  /** Stable id of the survey in its tool. */
  id: string;
  /** Shaped as GET /v3/surveys/{id}/details answers (title, language, pages[].questions[] with family/subtype/headings/answers, logic). */
  details: unknown;
  /** Shaped as the items of GET /v3/surveys/{id}/responses/bulk (id, date_created, date_modified, response_status, pages[].questions[].answers[] referencing the ids in details). */
  responses: unknown[];
  /** Everything not carried over (a question type, a logic rule, a setting), with the reason. */
  skipped: Skipped[];
}
export type FileTool = 'limesurvey' | 'typeform' | 'google-forms' | 'formbricks';
/** Thrown for input that is not what the tool exports (the message is shown to the user). */
export class BadImportFile extends Error {}
export interface Converter {
  tool: FileTool;
  /** `file` is the survey (definition) file; `responses` the optional responses file. */
  convert(input: { file: Buffer; responses?: Buffer }): Promise<ConvertedSurvey>;
}
