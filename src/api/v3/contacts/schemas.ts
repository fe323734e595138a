// TypeBox schemas of contacts, contact lists and contact fields (reference §12).
import { Type } from 'typebox';
import type { Contact } from '../../../domain/contacts/contacts.js';
import {
  CONTACT_STATUSES,
  CUSTOM_SLOTS,
  customFieldsOf,
  SORT_KEYS,
} from '../../../domain/contacts/contacts.js';
import type { ContactList } from '../../../domain/contacts/lists.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.String({ pattern: '^[0-9]{1,20}$' });
/** Text without NUL characters (PostgreSQL cannot store them). */
const NO_NUL = '^[^\\u0000]*$';
export const ContactParams = Type.Object({ contact_id: Id });
export const ListParams = Type.Object({ contact_list_id: Id });
export const FieldParams = Type.Object({ contact_field_id: Type.String({ pattern: '^[1-6]$' }) });

const Text = Type.String({ maxLength: 255, pattern: NO_NUL });
const CustomFields = Type.Object(Object.fromEntries(CUSTOM_SLOTS.map((s) => [s, Type.Optional(Text)])), {
  additionalProperties: false,
  description: 'Custom field slots "1".."6"',
});

const contactFields = {
  first_name: Type.Optional(Text),
  last_name: Type.Optional(Text),
  email: Type.Optional(Nullable(Type.String({ maxLength: 254, pattern: NO_NUL }))),
  phone_number: Type.Optional(Nullable(Type.String({ maxLength: 20, pattern: NO_NUL }))),
  custom_fields: Type.Optional(CustomFields),
};

export const ContactBody = Type.Object(contactFields, { additionalProperties: false });

export const BulkBody = Type.Object(
  {
    contacts: Type.Array(Type.Object(contactFields, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 1000,
    }),
    update_existing: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const ContactItem = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Nullable(Type.String()),
  phone_number: Nullable(Type.String()),
  status: Type.String({ description: 'active | optout | bounced' }),
  href: Type.String(),
});

export const ContactResource = Type.Object({
  ...ContactItem.properties,
  custom_fields: Type.Object(Object.fromEntries(CUSTOM_SLOTS.map((s) => [s, Type.String()]))),
});

const InvalidContact = Type.Object({
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  email: Type.Optional(Nullable(Type.String())),
  phone_number: Type.Optional(Nullable(Type.String())),
  custom_fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  error: Type.String(),
});

export const BulkResult = Type.Object({
  succeeded: Type.Array(ContactResource),
  invalids: Type.Array(InvalidContact),
  existing: Type.Array(ContactResource),
});

const SortKey = Type.Union(SORT_KEYS.map((k) => Type.Literal(k)));
export const ContactQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, default: 1 })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    status: Type.Optional(
      Type.Union(
        CONTACT_STATUSES.map((s) => Type.Literal(s)),
        { default: 'active' },
      ),
    ),
    sort_by: Type.Optional(SortKey),
    sort_order: Type.Optional(
      Type.Union([Type.Literal('ASC'), Type.Literal('DESC'), Type.Literal('asc'), Type.Literal('desc')]),
    ),
    search_by: Type.Optional(SortKey),
    search: Type.Optional(Type.String({ maxLength: 255, pattern: NO_NUL })),
  },
  { additionalProperties: true },
);

export const ListBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL })) },
  { additionalProperties: false },
);
export const ListNameBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL }) },
  { additionalProperties: false },
);
export const MergeBody = Type.Object({ list_id: Id }, { additionalProperties: false });
export const ListResource = Type.Object({ id: Type.String(), name: Type.String(), href: Type.String() });

export const FieldResource = Type.Object({ id: Type.String(), label: Type.String(), href: Type.String() });
export const FieldBody = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL }) },
  { additionalProperties: false },
);

export function presentItem(base: string, c: Contact) {
  return {
    id: c.id,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone_number: c.phone_number,
    status: c.status,
    href: `${base}/v3/contacts/${c.id}`,
  };
}

export function presentContact(base: string, c: Contact) {
  return { ...presentItem(base, c), custom_fields: customFieldsOf(c) };
}

export function presentList(base: string, l: ContactList) {
  return { id: l.id, name: l.name, href: `${base}/v3/contact_lists/${l.id}` };
}
