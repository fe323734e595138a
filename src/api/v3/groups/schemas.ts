// Schemas shared by the group (team) routes.
import { type TSchema, Type } from 'typebox';

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const GroupParams = Type.Object({ group_id: Type.String({ pattern: '^[0-9]{1,20}$' }) });
export const MemberParams = Type.Object({
  group_id: Type.String({ pattern: '^[0-9]{1,20}$' }),
  member_id: Type.String({ pattern: '^[0-9]{1,20}$' }),
});

export const MEMBER_TYPES_DOC = 'regular, account_owner or admin';

export const MemberSchema = Type.Object(
  {
    id: Type.String(),
    user_id: Type.String(),
    username: Type.String(),
    first_name: Type.String({ description: '"" when unknown' }),
    last_name: Type.String({ description: '"" when unknown' }),
    email: Type.String(),
    language: Type.String(),
    type: Type.String({ description: MEMBER_TYPES_DOC }),
    status: Type.String({ description: 'active or pending (pending until the invitation is accepted)' }),
    date_created: Type.String(),
    href: Type.String(),
  },
  { $id: 'GroupMember' },
);
