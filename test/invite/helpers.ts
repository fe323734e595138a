// Shared steps of the invitation tests: a one-question survey with an email collector, reading
// links out of raw emails, and answering through a personal link with plain form posts.
import { expect } from 'vitest';
import type { ApiClient } from '../helpers/client.js';

export async function emailCollector(client: ApiClient, token: string) {
  const s = await client.post(
    '/v3/surveys',
    {
      title: 'Staff survey',
      pages: [
        { questions: [{ family: 'open_ended', subtype: 'single', headings: [{ heading: 'Ideas?' }] }] },
      ],
    },
    { token },
  );
  expect(s.status, s.text).toBe(201);
  const details = await client.get(`/v3/surveys/${s.body.id}/details`, { token });
  const c = await client.post(`/v3/surveys/${s.body.id}/collectors`, { type: 'email' }, { token });
  expect(c.status, c.text).toBe(201);
  return {
    surveyId: s.body.id as string,
    collectorId: c.body.id as string,
    questionId: details.body.pages[0].questions[0].id as string,
  };
}

function decodePart(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable')
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return body;
}

/** The headers and every decoded text part of a raw email (a small MIME reader for tests). */
export function decoded(raw: string): string {
  const cut = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, cut);
  const body = raw.slice(cut).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  if (!boundary || !/content-type:\s*multipart/i.test(headers))
    return `${headers}\n\n${decodePart(headers, body)}`;
  const parts = body.split(`--${boundary}`).slice(1, -1);
  return `${headers}\n\n${parts.map((p) => decoded(p.replace(/^\r?\n/, ''))).join('\n')}`;
}

/** The personal survey link and opt-out link in an email, moved onto the test server's origin. */
export function linksIn(raw: string, origin: string) {
  const text = decoded(raw);
  const survey = /https?:\/\/[^\s"<>]+\/r\/[A-Za-z0-9]+\?rcp=[A-Za-z0-9_-]+/.exec(text)?.[0];
  const optOut = /https?:\/\/[^\s"<>]+\/optout\?sm=[A-Za-z0-9_-]+/.exec(text)?.[0];
  const move = (u: string | undefined) => {
    if (!u) return undefined;
    const url = new URL(u);
    return `${origin}${url.pathname}${url.search}`;
  };
  return { survey: move(survey), optOut: move(optOut) };
}

/** Answers the one-question survey at `link` as a browser without JavaScript would. */
export async function answerThrough(link: string, questionId: string, answer: string) {
  const first = await fetch(link);
  expect(first.status).toBe(200);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const page = await first.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const action = /<form[^>]*action="([^"]*)"[^>]*data-respond/.exec(page)?.[1];
  const target = action ? new URL(action.replace(/&amp;/g, '&'), link).toString() : link;
  const res = await fetch(target, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrf: field('csrf'),
      p: field('p'),
      started: field('started'),
      nav: 'next',
      [`q_${questionId}`]: answer,
    }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text() };
}
