// Who an invitation says it is from. Invitations leave from the service's MAIL_FROM address (so
// they pass SPF/DKIM), and the display name is the only part an account chooses: it must not be
// able to pose as another sender. So it never holds an address or a domain name ("security@
// paypal.com", "paypal.com Support"), and it always says it came through the service:
// "Ana Lima via Survey Service".

/** The service's name in display names. */
export const SERVICE_NAME = 'Survey Service';

/** Links and addresses written anywhere in a name. */
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S*/giu;
/** A word holding an @, with everything around it up to a space. */
const ADDRESS_LIKE = /\S*@\S*/gu;
/** Host names: two or more dotted labels ending in at least two letters (paypal.com, a.b.co.uk). */
const DOMAIN_LIKE = /[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*\.\p{L}[\p{L}\p{N}-]+/gu;
/** Characters that mean something in an address header, controls, and invisible or bidi marks. */
const UNSAFE = /[@<>"\\()[\]{};:,\p{Cc}\p{Cf}]/gu;

/**
 * A display name with anything that looks like an address or a domain taken out, and characters
 * that mean something in a header, invisible ones and line breaks removed; '' when nothing
 * readable is left. NFKC first, so full-width ＠ and ．count as @ and '.'.
 */
export function safeDisplayName(raw: string): string {
  const s = raw
    .normalize('NFKC')
    .replace(URL_LIKE, ' ')
    .replace(ADDRESS_LIKE, ' ')
    .replace(DOMAIN_LIKE, ' ')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 64)
    .trim();
  return /[\p{L}\p{N}]/u.test(s) ? s : '';
}

/** "<owner's name> via Survey Service": the display name, else the username, cleaned alike;
 * plain "Survey Service" when neither leaves anything. */
export function senderName(owner: {
  first_name: string | null;
  last_name: string | null;
  username: string;
}): string {
  const name =
    safeDisplayName(`${owner.first_name ?? ''} ${owner.last_name ?? ''}`) || safeDisplayName(owner.username);
  return name ? `${name} via ${SERVICE_NAME}` : SERVICE_NAME;
}
