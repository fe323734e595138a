// A cookie-keeping HTTP client for the page tests that do not need a browser: it reads the CSRF
// token out of a form, posts urlencoded forms, and never follows redirects on its own.

export interface WebResponse {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

export class WebSession {
  readonly cookies = new Map<string, string>();
  readonly setCookieHeaders: string[] = [];

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    form?: Record<string, string | string[]>,
  ): Promise<WebResponse> {
    const headers: Record<string, string> = { ...this.extraHeaders };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) params.append(k, one);
      body = params.toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      this.setCookieHeaders.push(c);
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: res.status,
      location: res.headers.get('location'),
      headers: res.headers,
      text: await res.text(),
    };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, form: Record<string, string | string[]>) {
    return this.request('POST', path, form);
  }

  /** GETs a page and returns the CSRF token of its first form. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    const m = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return m[1];
  }

  async signIn(username: string, password: string): Promise<WebResponse> {
    const _csrf = await this.csrf('/login');
    return this.post('/login', { _csrf, username, password });
  }
}
