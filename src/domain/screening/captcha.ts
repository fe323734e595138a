// An optional CAPTCHA (Cloudflare Turnstile or hCaptcha), configured by the operator and off by
// default: nothing is sent to a third party unless CAPTCHA_PROVIDER is set. The widget's token,
// posted with the page, is checked with the provider's siteverify endpoint. Only a token the
// provider rejects flags the post: a browser without JavaScript cannot run the widget and posts
// no token, and a provider that cannot be reached is not the respondent's fault (fail open).
import type { Deps } from '../../context.js';
import { CAPTCHA_WIDGETS } from '../../platform/captcha-config.js';

export { CAPTCHA_WIDGETS };

/** The provider's siteverify is given this long; past it the post is not held up further. */
const VERIFY_TIMEOUT_MS = 3000;

/**
 * The provider's word on a posted token: 'failed' only when a token was posted and the provider
 * rejected it; 'unchecked' when off, without a token, or when the provider did not answer.
 */
export async function verifyCaptcha(
  deps: Deps,
  token: unknown,
  ip: string,
): Promise<'passed' | 'failed' | 'unchecked'> {
  const captcha = deps.config.captcha;
  if (!captcha || typeof token !== 'string' || token === '') return 'unchecked';
  try {
    const res = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: captcha.secretKey, response: token, remoteip: ip }).toString(),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body: unknown = await res.json();
    const success = typeof body === 'object' && body !== null && 'success' in body ? body.success : undefined;
    if (typeof success !== 'boolean') throw new Error('no success field in the answer');
    return success ? 'passed' : 'failed';
  } catch (err) {
    deps.log.warn(
      { err, provider: captcha.provider },
      'CAPTCHA verification unavailable: the post is not flagged by it',
    );
    return 'unchecked';
  }
}
