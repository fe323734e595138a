// Derives the group activity row of an event, in the event's own transaction (called only by
// recordEvent). The team, the actor's name, email and member type are resolved and copied at
// write time, so the log says what was true when it happened and is never rewritten.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { activityMessage } from './activity-messages.js';
import { activityTypeOf } from './activity-types.js';
import type { NewEvent } from './event-types.js';

type Executor = Kysely<Database> | Transaction<Database>;

export async function recordActivity(
  executor: Executor,
  eventId: string,
  event: NewEvent,
  createdAt: string,
): Promise<void> {
  const type = activityTypeOf(event);
  if (!type || !event.actorId) return;
  const query = executor
    .selectFrom('users as u')
    .leftJoin('team_members as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.email', 'm.team_id', 'm.type', 'm.status'])
    .where('u.id', '=', event.actorId);
  const actor = await query.executeTakeFirst();
  if (!actor) return;
  // The team the activity belongs to: the one named by the event, else the actor's own team.
  const activeMember = actor.team_id && actor.status === 'active';
  const groupId = event.groupId ?? (activeMember ? actor.team_id : null);
  if (!groupId) return;
  const memberType = actor.team_id === groupId && actor.type ? actor.type : 'regular';
  const team = await executor
    .selectFrom('teams')
    .select('owner_id')
    .where('id', '=', groupId)
    .executeTakeFirst();
  if (!team) return;
  await executor
    .insertInto('group_activities')
    .values({
      event_id: eventId,
      group_id: groupId,
      owner_account_id: team.owner_id,
      user_id: actor.id,
      user_name: actor.username,
      email: actor.email,
      member_type: memberType,
      activity_type: type,
      activity_msg: activityMessage(type, event.data ?? {}, event.resourceId ?? null),
      ip_address: event.ip ?? '',
      city: null,
      country: null,
      division_name: null,
      created_at: createdAt,
    })
    .execute();
}
