// Reading account archives in tests: every entry of a zip, and the archive with its ids and times
// replaced by placeholders (ids numbered by first appearance, in the archive's own order), so two
// archives of the same account on two servers compare equal.
import yauzl from 'yauzl';

export async function entries(path: string): Promise<Array<{ name: string; data: Buffer }>> {
  const zip = await yauzl.openPromise(path);
  const out: Array<{ name: string; data: Buffer }> = [];
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c);
    out.push({ name: entry.fileName, data: Buffer.concat(chunks) });
  }
  return out;
}

const ID = /^[0-9]{9,20}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The archive's files by name (ids in names too), JSON parsed, ids and instants replaced. */
export async function normalised(path: string): Promise<Record<string, any>> {
  const ids = new Map<string, string>();
  const id = (s: string) => {
    if (!ids.has(s)) ids.set(s, `#${ids.size + 1}`);
    return ids.get(s)!;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return INSTANT.test(v) ? '<time>' : v.replace(/[0-9]{9,20}/g, id);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [ID.test(k) ? id(k) : k, walk(x)]));
    return v;
  };
  const out: Record<string, any> = {};
  for (const { name, data } of await entries(path)) {
    const key = name.replace(/[0-9]{9,20}/g, (m) => id(m));
    const text = data.toString('utf8');
    out[key] = name.endsWith('.jsonl')
      ? text
          .split('\n')
          .filter(Boolean)
          .map((l) => walk(JSON.parse(l)))
      : name.endsWith('.json')
        ? walk(JSON.parse(text))
        : data.toString('base64');
  }
  return out;
}
