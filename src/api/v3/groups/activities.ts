// Group activity: GET /groups/{id}/activities (the log, newest first) and
// GET /groups/{id}/activities/{action_type} (counts per period). Callers through a public app
// must be an owner or admin of the team; through a draft or private app, any active member.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Deps } from '../../../context.js';
import {
  type ActivityRange,
  activitySeries,
  INTERVALS,
  type Interval,
  listActivities,
} from '../../../domain/activity/query.js';
import { ACTIVITY_TYPES, isActivityType } from '../../../domain/core/activity-types.js';
import { teamForCaller } from '../../../domain/teams/members.js';
import type { Api } from '../../../http/types.js';
import { parseApiDate, spaced } from '../../../platform/dates.js';
import { ApiError } from '../../../platform/errors.js';
import { GroupParams, Nullable } from './schemas.js';

const DateQuery = (description: string) =>
  Type.Optional(Type.String({ description: `${description} (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UTC)` }));

const ActivitySchema = Type.Object(
  {
    date_created: Type.String({ description: 'YYYY-MM-DD HH:MM:SS' }),
    user_id: Nullable(Type.Integer()),
    user_name: Type.String(),
    email: Type.String(),
    member_type: Type.String(),
    group_id: Type.Integer(),
    activity_type: Type.String(),
    activity_msg: Type.String(),
    ip_address: Type.String(),
    city: Nullable(Type.String()),
    country: Nullable(Type.String()),
    division_name: Nullable(Type.String()),
  },
  { $id: 'GroupActivity' },
);

/** A date query value as an instant; a bare date as an end means "through that whole day". */
function parseBound(value: string | undefined, name: string, asEnd: boolean): string | undefined {
  if (value === undefined) return undefined;
  const iso = parseApiDate(value);
  if (!iso) throw new ApiError(1003, `'${name}' must be a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS).`);
  if (asEnd) {
    const d = new Date(iso);
    d.setTime(/^\d{4}-\d{2}-\d{2}$/.test(value) ? d.getTime() + 86_400_000 : d.getTime() + 1000);
    return d.toISOString();
  }
  return iso;
}

function rangeOf(query: { start_date?: string; end_date?: string }): ActivityRange {
  const range = {
    start: parseBound(query.start_date, 'start_date', false),
    end: parseBound(query.end_date, 'end_date', true),
  };
  if (range.start && range.end && range.start >= range.end)
    throw new ApiError(1003, "'start_date' must be before 'end_date'.");
  return range;
}

async function authorise(deps: Deps, request: FastifyRequest, groupId: string) {
  const caller = await teamForCaller(deps, request.auth.user.id, groupId);
  if (request.auth.app.status === 'public' && !caller.admin)
    throw new ApiError(1016, 'Through a public app, only team owners and admins may read group activity.');
  return caller;
}

export function groupActivitiesRoutes(app: Api, deps: Deps): void {
  app.get(
    '/groups/:group_id/activities',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Group activities'],
        summary: "The team's activity, newest first",
        params: GroupParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647, default: 0 })),
          start_date: DateQuery('Activities from this instant'),
          end_date: DateQuery('Activities up to this instant (a bare date: through that day)'),
        }),
        response: {
          200: Type.Object({
            limit: Type.Integer(),
            offset: Type.Integer(),
            total: Type.Integer(),
            sl_translate: Type.String(),
            results: Type.Array(ActivitySchema),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const range = rangeOf(q);
      const { team } = await authorise(deps, request, request.params.group_id);
      const limit = q.limit ?? 50;
      const offset = q.offset ?? 0;
      const { total, rows } = await listActivities(deps, team.id, range, { limit, offset });
      return {
        limit,
        offset,
        total,
        sl_translate: 'activity_msg,member_type',
        results: rows.map((r) => ({
          date_created: spaced(r.created_at),
          user_id: r.user_id === null ? null : Number(r.user_id),
          user_name: r.user_name,
          email: r.email,
          member_type: r.member_type,
          group_id: Number(r.group_id),
          activity_type: r.activity_type,
          activity_msg: r.activity_msg,
          ip_address: r.ip_address,
          city: r.city,
          country: r.country,
          division_name: r.division_name,
        })),
      };
    },
  );

  app.get(
    '/groups/:group_id/activities/:action_type',
    {
      config: { scope: 'groups_read' },
      schema: {
        tags: ['Group activities'],
        summary: 'Counts of one activity type per period',
        description: `action_type: one of ${ACTIVITY_TYPES.join(', ')}. Without start_date the series starts at the team's creation; without end_date it ends now. \`times\` are the first day of each period (YYYY-MM-DD; weeks start on Monday, UTC).`,
        params: Type.Object({
          group_id: Type.String({ pattern: '^[0-9]{1,20}$' }),
          action_type: Type.String({ maxLength: 64 }),
        }),
        querystring: Type.Object({
          interval: Type.Union(
            INTERVALS.map((i) => Type.Literal(i)),
            { description: 'daily, weekly, monthly or yearly' },
          ),
          start_date: DateQuery('Count from this instant'),
          end_date: DateQuery('Count up to this instant (a bare date: through that day)'),
        }),
        response: {
          200: Type.Object({
            interval: Type.String(),
            series: Type.Array(Type.Integer()),
            times: Type.Array(Type.String()),
          }),
        },
      },
    },
    async (request) => {
      const { action_type: type, group_id: groupId } = request.params;
      if (!isActivityType(type))
        throw new ApiError(1003, `'${type}' is not an action type; use one of ${ACTIVITY_TYPES.join(', ')}.`);
      const interval = request.query.interval as Interval;
      const range = rangeOf(request.query);
      const { team } = await authorise(deps, request, groupId);
      const start = new Date(range.start ?? team.date_created);
      const end = range.end ? new Date(range.end) : new Date(deps.clock.now().getTime() + 1);
      const result =
        start < end
          ? await activitySeries(deps, team.id, type, interval, start, end)
          : { times: [], series: [] };
      if (!result) throw new ApiError(1003, `The range is too long for ${interval} counts; narrow it.`);
      return { interval, series: result.series, times: result.times };
    },
  );
}
