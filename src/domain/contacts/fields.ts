// Contact fields: the labels of the six custom field slots "1".."6" (default "Custom N").
import type { Deps } from '../../context.js';
import { ApiError } from '../../platform/errors.js';
import { CUSTOM_SLOTS } from './contacts.js';

export interface ContactField {
  id: string;
  label: string;
}

export async function listFields(deps: Deps, ownerId: string): Promise<ContactField[]> {
  const rows = await deps.db.kysely
    .selectFrom('contact_fields')
    .select(['field_id', 'label'])
    .where('owner_id', '=', ownerId)
    .execute();
  const labels = new Map(rows.map((r) => [r.field_id, r.label]));
  return CUSTOM_SLOTS.map((id) => ({ id, label: labels.get(id) ?? `Custom ${id}` }));
}

export async function getField(deps: Deps, ownerId: string, id: string): Promise<ContactField> {
  const field = (await listFields(deps, ownerId)).find((f) => f.id === id);
  if (!field) throw new ApiError(1020, 'Contact field not found.');
  return field;
}

export async function setFieldLabel(
  deps: Deps,
  ownerId: string,
  id: string,
  label: string,
): Promise<ContactField> {
  await getField(deps, ownerId, id);
  await deps.db.kysely
    .insertInto('contact_fields')
    .values({ owner_id: ownerId, field_id: id, label })
    .onConflict((oc) => oc.columns(['owner_id', 'field_id']).doUpdateSet({ label }))
    .execute();
  return { id, label };
}
