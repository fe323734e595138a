// The source account's API, read within its rate limits: every request is counted against the
// job's daily budget first (kept in the database, so several runs in a day share it), the
// X-Ratelimit-App-Global-* headers are obeyed, and a 429 is waited out. The token goes only into
// the Authorization header: never into a message, a log line or the database, and only to the
// source's origin: a redirect or a links.next elsewhere is not followed (a malformed source), so
// another host never sees the token and its answer never reaches a message.

import { setTimeout as sleep } from 'node:timers/promises';
import { MalformedSource } from './source.js';
import { SourceApi } from './source-api.js';

/** The day's budget (ours or the source's) is spent: the import pauses until `resumeAt`. */
export class BudgetSpent extends Error {
  constructor(readonly resumeAt: Date) {
    super(`the daily request budget is spent until ${resumeAt.toISOString()}`);
  }
}

/** The source refused a request for a reason waiting will not cure. */
export class RemoteError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    detail: string,
  ) {
    super(`the source answered ${status} to GET ${path}: ${detail}`);
  }
}

/** Counts one request against the budget, or throws BudgetSpent. */
export interface RequestBudget {
  spend(): Promise<void>;
}

export interface RemoteOptions {
  budget: RequestBudget;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Longest single wait on a 429 or an exhausted minute (longer means: pause instead). */
  maxWaitMs?: number;
  /** Aborts the next request and any wait (the run is being stopped). */
  signal?: AbortSignal;
}

const header = (res: Response, name: string) => {
  const v = res.headers.get(name);
  return v === null || v === '' ? undefined : Number(v);
};

/** The part of a source URL everything hangs off: scheme, host, optional path prefix, no /v3. */
export function normaliseSourceUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('--from must be an http(s) URL');
  return `${u.origin}${u.pathname.replace(/\/+$/, '').replace(/\/v3$/, '')}`;
}

/** Redirects within the source's origin followed for one request (each spends a request). */
const MAX_REDIRECTS = 5;

export class RemoteApi extends SourceApi {
  private readonly origin: string;
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxWaitMs: number;
  /** Set when the source said its day is used up; the next get throws BudgetSpent. */
  private pausedUntil: Date | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly options: RemoteOptions,
  ) {
    super();
    this.origin = new URL(baseUrl).origin;
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? ((ms) => sleep(ms, undefined, { signal: options.signal }));
    this.maxWaitMs = options.maxWaitMs ?? 5 * 60_000;
  }

  /**
   * GET a /v3 path (or an absolute links.next URL on the source) as JSON, unchecked. A URL on
   * another origin, or a redirect there, is a MalformedSource: it is never requested.
   */
  async get(pathOrUrl: string): Promise<unknown> {
    let url = this.onSource(pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}/v3${pathOrUrl}`);
    if (!url) throw new MalformedSource(`the source linked away from ${this.origin}`);
    const path = url.pathname;
    let redirects = 0;
    for (;;) {
      this.options.signal?.throwIfAborted();
      this.checkPaused();
      await this.options.budget.spend();
      // Redirects are followed by hand, so that the token goes to the source's origin only.
      const res = await fetch(url, {
        headers: { authorization: `bearer ${this.token}`, accept: 'application/json' },
        redirect: 'manual',
        signal: this.options.signal,
      });
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (location !== null) {
        await res.body?.cancel();
        if (++redirects > MAX_REDIRECTS)
          throw new MalformedSource(`the source redirected GET ${path} more than ${MAX_REDIRECTS} times`);
        url = this.onSource(location, url);
        if (!url) throw new MalformedSource(`the source redirected GET ${path} away from ${this.origin}`);
        continue;
      }
      const dayRemaining = header(res, 'x-ratelimit-app-global-day-remaining');
      const dayReset = header(res, 'x-ratelimit-app-global-day-reset') ?? 0;
      const minuteRemaining = header(res, 'x-ratelimit-app-global-minute-remaining');
      const minuteReset = header(res, 'x-ratelimit-app-global-minute-reset') ?? 60;
      if (res.status === 429) {
        await res.body?.cancel();
        if (dayRemaining === 0) throw new BudgetSpent(new Date(this.now().getTime() + dayReset * 1000));
        const retryAfter = header(res, 'retry-after');
        await this.wait((retryAfter ?? minuteReset) * 1000);
        continue;
      }
      const text = await res.text();
      if (!res.ok) {
        let detail = text.slice(0, 200);
        try {
          const body = JSON.parse(text);
          detail = body?.error?.message ?? body?.errmsg ?? detail;
        } catch {}
        throw new RemoteError(res.status, path, detail);
      }
      // The source has no more for today (its own limit, which may be below our budget): stop
      // before a request it would refuse. An exhausted minute is simply waited out.
      if (dayRemaining === 0) this.pausedUntil = new Date(this.now().getTime() + dayReset * 1000);
      else if (minuteRemaining === 0) await this.wait(minuteReset * 1000);
      try {
        return JSON.parse(text);
      } catch {
        throw new MalformedSource(`the source's answer to GET ${path} is not JSON`);
      }
    }
  }

  protected readonly whose = "the source's";

  protected override checkNext(next: string, what: string): void {
    if (!this.onSource(next))
      throw new MalformedSource(
        `the source's list of ${what} is malformed: its links.next leads away from ${this.origin}`,
      );
  }

  /** The URL `href` names (relative to `base`) when it is on the source's origin, else undefined. */
  private onSource(href: string, base?: URL): URL | undefined {
    try {
      const url = new URL(href, base);
      return url.origin === this.origin ? url : undefined;
    } catch {
      return undefined;
    }
  }

  checkPaused(): void {
    if (this.pausedUntil && this.pausedUntil > this.now()) throw new BudgetSpent(this.pausedUntil);
  }

  private async wait(ms: number): Promise<void> {
    if (ms > this.maxWaitMs) throw new BudgetSpent(new Date(this.now().getTime() + ms));
    await this.sleep(Math.max(ms, 250));
  }
}
