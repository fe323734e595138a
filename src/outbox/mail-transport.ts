// Mail transport: nodemailer over SMTP when SMTP_URL is set; otherwise a local outbox directory of
// .eml files (MAIL_DIR, default ./data/mail) that the page at /outbox/mail shows, so the embedded
// default needs no mail server. Both sign with DKIM when MAIL_DKIM_* is set.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type StreamTransport from 'nodemailer/lib/stream-transport/index.js';
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
  /** files sent with the message (a summary's PDF report) */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
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

/** A transporter made at its first message: nodemailer loads then, not with every process that may
 * send. Closing one never made, or one that failed to start, does nothing. */
function transporterOnFirstUse(options: SMTPPool.Options | StreamTransport.Options) {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then((m) => m.default.createTransport(options))),
    close: () =>
      void made?.then(
        (t) => t.close(),
        () => {},
      ),
  };
}

export function createMailTransport(config: Config): MailTransport {
  const dkim = dkimOption(config);
  const message = (m: OutgoingMail) => ({
    from: m.from,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    headers: { 'X-Survey-Service-Mail-Id': m.id, ...m.headers },
    attachments: m.attachments,
  });
  if (config.mail.smtpUrl) {
    // Time limits well inside the worker's claim lease, so a hanging server cannot outlive a claim.
    // One pooled connection per worker, kept open across messages (the worker sends one at a time):
    // a new connection and greeting per message cost more than the message itself.
    const smtp = transporterOnFirstUse({
      pool: true,
      maxConnections: 1,
      url: config.mail.smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      dkim,
    });
    return {
      kind: 'smtp',
      async send(m) {
        const info = await (await smtp.get()).sendMail(message(m));
        return String(info.messageId ?? '');
      },
      close: smtp.close,
    };
  }
  const dir = config.mail.dir;
  const stream = transporterOnFirstUse({ streamTransport: true, buffer: true, newline: 'unix', dkim });
  return {
    kind: 'file',
    async send(m) {
      const info = await (await stream.get()).sendMail(message(m));
      mkdirSync(dir, { recursive: true });
      const name = emlFileName(m.id);
      const tmp = join(dir, `.${name}.tmp`);
      writeFileSync(tmp, info.message as Buffer);
      renameSync(tmp, join(dir, name));
      return name;
    },
    close: stream.close,
  };
}
