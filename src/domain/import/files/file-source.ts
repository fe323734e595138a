import { parseApiDate } from '../../../platform/dates.js';
import { MalformedSource } from '../source.js';
import { SourceApi } from '../source-api.js';
import type { ConvertedSurvey, FileTool } from './converted.js';

/** How each tool is named to the user (the collector that holds a file's responses is named after it). */
export const TOOL_NAMES: Record<FileTool, string> = {
  limesurvey: 'LimeSurvey',
  typeform: 'Typeform',
  'google-forms': 'Google Forms',
  formbricks: 'Formbricks',
};

const field = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? Reflect.get(o, key) : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const instant = (v: string | undefined) =>
  v ? (parseApiDate(v.replace(/ (\d{2}:?\d{2})$/, '+$1')) ?? v) : '';

const list = (data: unknown[], next?: string) => ({
  data,
  per_page: Math.max(1, data.length),
  page: 1,
  total: data.length,
  links: next ? { next } : {},
});

export class FileSource extends SourceApi {
  protected readonly whose = "the file's";
  readonly surveyId: string;
  readonly collectorId: string;
  private readonly details: Record<string, unknown>;
  private readonly responses: Record<string, unknown>[];
  private readonly modified: string;

  /** `at`: the date given to what the file leaves undated (the import's clock, stable per job). */
  constructor(
    readonly tool: FileTool,
    converted: ConvertedSurvey,
    at: string,
  ) {
    super();
    this.surveyId = String(converted.id);
    this.collectorId = `${this.surveyId}-responses`;
    const details = converted.details;
    const base = details && typeof details === 'object' ? { ...details } : {};
    this.modified = text(field(base, 'date_modified')) ?? text(field(base, 'date_created')) ?? at;
    this.details = { ...base, id: this.surveyId, folder_id: null, date_modified: this.modified };
    this.responses = converted.responses
      .map((r) => {
        const o: Record<string, unknown> = r && typeof r === 'object' ? { ...r } : { bad: r };
        const created = text(o.date_created);
        o.date_modified = text(o.date_modified) ?? created ?? this.modified;
        o.collector_id = this.collectorId;
        return o;
      })
      .sort((a, b) => instant(text(a.date_modified)).localeCompare(instant(text(b.date_modified))));
  }

  private title(): string {
    return text(this.details.title) ?? this.surveyId;
  }

  async get(pathOrUrl: string): Promise<unknown> {
    const url = new URL(pathOrUrl, 'file://source/v3/');
    const path = url.pathname.replace(/^\/v3/, '');
    const q = url.searchParams;
    const sid = encodeURIComponent(this.surveyId);
    if (path === '/users/me') return { id: 'file', username: this.tool };
    if (path === '/surveys')
      return list([
        {
          id: this.surveyId,
          title: this.title(),
          response_count: this.responses.length,
          date_modified: this.modified,
        },
      ]);
    if (path === `/surveys/${sid}/details`) return this.details;
    if (path === `/surveys/${sid}/collectors`)
      return list([{ id: this.collectorId, date_modified: this.modified }]);
    if (path === `/collectors/${encodeURIComponent(this.collectorId)}`)
      return {
        id: this.collectorId,
        // Closed: the responses came from the other tool; a new collector here starts collecting.
        type: 'weblink',
        name: `Imported from ${TOOL_NAMES[this.tool]}`,
        status: 'closed',
        date_created: text(this.details.date_created) ?? this.modified,
        date_modified: this.modified,
      };
    if (path === `/surveys/${sid}/responses/bulk`) return this.bulk(q);
    if (['/survey_folders', '/contact_fields', '/contacts', '/contact_lists'].includes(path)) return list([]);
    throw new MalformedSource(`a file holds no ${path}`);
  }

  /** One bulk page of the responses in date_modified order, from start_modified_at (UTC) on. */
  private bulk(q: URLSearchParams) {
    const per = Math.max(1, Math.min(100, Number(q.get('per_page') ?? 50) || 50));
    const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
    const since = q.get('start_modified_at');
    const from = since ? Date.parse(`${since}Z`) : Number.NEGATIVE_INFINITY;
    const items = this.responses.filter((r) => !(Date.parse(instant(text(r.date_modified))) < from));
    const data = items.slice((page - 1) * per, page * per);
    const rest = new URLSearchParams(q);
    rest.set('page', String(page + 1));
    const next = page * per < items.length ? `/surveys/${this.surveyId}/responses/bulk?${rest}` : undefined;
    return { ...list(data, next), per_page: per, page, total: items.length };
  }
}
