// The same documents the export files hold, fetched from the tool's API with a token: a form (or
// survey) and every page of its responses, given to the converter as the files would be. The base
// URL is the tool's public API unless told (a self-hosted Formbricks, a test server).
import { BadImportFile, type FileTool } from './converted.js';

export interface ToolFetch {
  tool: string;
  token: string;
  formId: string;
  apiUrl?: string;
}

const BASES: Partial<Record<FileTool, string>> = {
  typeform: 'https://api.typeform.com',
  'google-forms': 'https://forms.googleapis.com/v1',
  formbricks: 'https://app.formbricks.com',
};
const PAGE = 1000;
/** At most this many pages of responses (a million responses). */
const MAX_PAGES = 1000;

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...headers }, redirect: 'error' });
  } catch (err) {
    throw new BadImportFile(
      `${new URL(url).origin} could not be reached (${err instanceof Error ? err.message : String(err)}).`,
    );
  }
  const path = new URL(url).pathname;
  if (!res.ok)
    throw new BadImportFile(`${new URL(url).origin} answered ${res.status} to ${path}: is the token right?`);
  try {
    return await res.json();
  } catch {
    throw new BadImportFile(`${new URL(url).origin} answered ${path} with something that is not JSON.`);
  }
}

const field = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' ? Reflect.get(o, key) : undefined;
const listIn = (o: unknown, key: string): unknown[] => {
  const v = field(o, key);
  return Array.isArray(v) ? v : [];
};

/** The tool's form and responses documents, as its export files would hold them. */
export async function fetchExport(o: ToolFetch): Promise<{ file: Buffer; responses: Buffer }> {
  const entry = Object.entries(BASES).find(([t]) => t === o.tool);
  if (!entry) throw new BadImportFile(`Fetching from the API works for ${Object.keys(BASES).join(', ')}.`);
  const [tool, defaultBase] = entry;
  const base = (o.apiUrl ?? defaultBase).replace(/\/+$/, '');
  const id = encodeURIComponent(o.formId);
  const headers: Record<string, string> =
    tool === 'formbricks' ? { 'x-api-key': o.token } : { authorization: `Bearer ${o.token}` };
  const pages: unknown[] = [];
  let form: unknown;
  if (tool === 'typeform') {
    form = await getJson(`${base}/forms/${id}`, headers);
    let before = '';
    for (let i = 0; i < MAX_PAGES; i++) {
      const body = await getJson(`${base}/forms/${id}/responses?page_size=${PAGE}${before}`, headers);
      const items = listIn(body, 'items');
      pages.push(body);
      const last = field(items.at(-1), 'token');
      if (items.length < PAGE || typeof last !== 'string') break;
      before = `&before=${encodeURIComponent(last)}`;
    }
  } else if (tool === 'google-forms') {
    form = await getJson(`${base}/forms/${id}`, headers);
    let token = '';
    for (let i = 0; i < MAX_PAGES; i++) {
      const body = await getJson(`${base}/forms/${id}/responses${token}`, headers);
      pages.push(body);
      const next = field(body, 'nextPageToken');
      if (typeof next !== 'string' || next === '') break;
      token = `?pageToken=${encodeURIComponent(next)}`;
    }
  } else {
    form = await getJson(`${base}/api/v1/management/surveys/${id}`, headers);
    for (let i = 0; i < MAX_PAGES; i++) {
      const body = await getJson(
        `${base}/api/v1/management/responses?surveyId=${id}&limit=${PAGE}&skip=${i * PAGE}`,
        headers,
      );
      pages.push(body);
      if (listIn(body, 'data').length < PAGE) break;
    }
  }
  return { file: Buffer.from(JSON.stringify(form)), responses: Buffer.from(JSON.stringify(pages)) };
}
