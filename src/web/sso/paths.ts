// Where a sign-in through a single sign-on provider starts (the sign-in page links here).
export const OIDC_LOGIN_PATH = '/auth/oidc/login';
export const SAML_LOGIN_PATH = '/auth/saml/login';
