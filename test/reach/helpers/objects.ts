// Real surveys and collectors, made through the API, for webhooks to watch (object_ids must name
// surveys/collectors the account may analyze).
import { expect } from 'vitest';
import type { ApiClient } from '../../helpers/client.js';

export interface Watched {
  surveyId: string;
  collectorId: string;
}

/** A new survey with one weblink collector, owned by the token's account. */
export async function surveyWithCollector(
  client: ApiClient,
  token: string,
  title = 'Watched',
): Promise<Watched> {
  const s = await client.post('/v3/surveys', { title }, { token });
  expect(s.status, JSON.stringify(s.body)).toBe(201);
  const c = await client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'weblink' }, { token });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  return { surveyId: s.body.id as string, collectorId: c.body.id as string };
}
