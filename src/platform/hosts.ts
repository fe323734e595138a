// Host header checks shared by every listener that must answer only to this machine's own names.

/** localhost and *.localhost (always loopback, RFC 6761), 127/8 and [::1], with any port. */
const LOOPBACK_HOST =
  /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/i;

/**
 * Whether a Host header names this machine's loopback: a web page that rebinds its own DNS name to
 * 127.0.0.1 still sends its own name, so loopback-only listeners and pages refuse any other.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  return LOOPBACK_HOST.test(host ?? '');
}
