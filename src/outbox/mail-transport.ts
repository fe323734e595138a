// Mail transport: nodemailer over SMTP when SMTP_URL is set; otherwise a local outbox directory of
// .eml files (MAIL_DIR, default ./data/mail) that the page at /outbox/mail shows, so the embedded
// default needs no mail server. Both sign with DKIM when MAIL_DKIM_* is set.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';
import { emlFileName } from '../platform/mail-files.js';

export interface OutgoingMail {
  /** the outbox row id: names the .eml file, so writing it twice overwrites rather than duplicates */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  headers?: Record<string, string>;
}

export interface MailTransport {
  kind: 'smtp' | 'file';
  /** Sends one message; returns the Message-ID (SMTP) or the .eml file name (file outbox). */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/** A transport error the server reported as permanent (SMTP 5xx): retrying cannot help. */
export function isPermanentMailError(err: unknown): boolean {
  const code = err && typeof err === 'object' && 'responseCode' in err ? err.responseCode : undefined;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** nodemailer's DKIM option from MAIL_DKIM_* (the key file read once, when the transport is made). */
function dkimOption(config: Config) {
  const d = config.mailDkim;
  if (!d) return undefined;
  return {
    domainName: d.domain,
    keySelector: d.selector,
    privateKey: d.privateKey ?? readFileSync(d.privateKeyFile!, 'utf8'),
  };
}

/** nodemailer loads with the first message a process sends, not with every process that may send. */
const nodemailer = () => import('nodemailer').then((m) => m.default);

export function createMailTransport(config: Config): MailTransport {
  const dkim = dkimOption(config);
  const message = (m: OutgoingMail) => ({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    headers: { 'X-Survey-Service-Mail-Id': m.id, ...m.headers },
  });
  if (config.mail.smtpUrl) {
    // Time limits well inside the worker's claim lease, so a hanging server cannot outlive a claim.
    // One pooled connection per worker, kept open across messages (the worker sends one at a time):
    // a new connection and greeting per message cost more than the message itself.
    const url = config.mail.smtpUrl;
    let smtp: Promise<Transporter> | undefined;
    const pooled = () =>
      (smtp ??= nodemailer().then((n) =>
        n.createTransport({
          pool: true,
          maxConnections: 1,
          url,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 60_000,
          dkim,
        }),
      ));
    return {
      kind: 'smtp',
      async send(m) {
        const info = await (await pooled()).sendMail(message(m));
        return String(info.messageId ?? '');
      },
      // a transport that failed to start has nothing to close
      close: () =>
        void smtp?.then(
          (t) => t.close(),
          () => {},
        ),
    };
  }
  const dir = config.mail.dir;
  let stream: Promise<Transporter> | undefined;
  const writer = () =>
    (stream ??= nodemailer().then((n) =>
      n.createTransport({ streamTransport: true, buffer: true, newline: 'unix', dkim }),
    ));
  return {
    kind: 'file',
    async send(m) {
      const info = await (await writer()).sendMail(message(m));
      mkdirSync(dir, { recursive: true });
      const name = emlFileName(m.id);
      const tmp = join(dir, `.${name}.tmp`);
      writeFileSync(tmp, info.message as Buffer);
      renameSync(tmp, join(dir, name));
      return name;
    },
    close: () =>
      void stream?.then(
        (t) => t.close(),
        () => {},
      ),
  };
}
