// The address book as a CSV file: every contact (active, opted out, bounced) with the custom
// fields under their labels, written by the response exports' CSV writer (formula neutralising and
// quoting included).
import type { Deps } from '../../context.js';
import { csvFile } from '../../platform/csv.js';
import { CONTACT_STATUSES, customFieldsOf, listContacts } from './contacts.js';
import { listFields } from './fields.js';

const PAGE = 1000;

export async function contactsCsv(deps: Deps, ownerId: string): Promise<string> {
  const fields = await listFields(deps, ownerId);
  const records: string[][] = [
    ['email', 'first_name', 'last_name', 'phone_number', 'status', ...fields.map((f) => f.label)],
  ];
  for (const status of CONTACT_STATUSES)
    for (let offset = 0; ; offset += PAGE) {
      const { rows } = await listContacts(deps, ownerId, { status }, { offset, perPage: PAGE });
      for (const c of rows) {
        const custom = customFieldsOf(c);
        records.push([
          c.email ?? '',
          c.first_name,
          c.last_name,
          c.phone_number ?? '',
          c.status,
          ...fields.map((f) => custom[f.id as keyof typeof custom]),
        ]);
      }
      if (rows.length < PAGE) break;
    }
  return csvFile(records, true);
}
