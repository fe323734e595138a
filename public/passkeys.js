// Passkeys (served at /assets/passkeys.js, after @simplewebauthn/browser's bundle): a form marked
// data-passkey="register" or "sign-in" carries the server's options in data-passkey-options; on
// submit the browser makes or uses a passkey, its JSON answer goes in the form's hidden `response`
// field and the form is sent. Without script (or WebAuthn) those forms stay hidden.
(() => {
  const lib = window.SimpleWebAuthnBrowser;
  if (!lib?.browserSupportsWebAuthn()) return;
  for (const note of document.querySelectorAll('[data-passkey-noscript]')) note.hidden = true;
  for (const form of document.querySelectorAll('form[data-passkey]')) {
    form.hidden = false;
    const status = form.querySelector('[data-passkey-status]');
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (status) status.textContent = '';
      try {
        const optionsJSON = JSON.parse(form.dataset.passkeyOptions);
        const answer =
          form.dataset.passkey === 'register'
            ? await lib.startRegistration({ optionsJSON })
            : await lib.startAuthentication({ optionsJSON });
        form.querySelector('input[name="response"]').value = JSON.stringify(answer);
        form.submit();
      } catch (err) {
        if (status) status.textContent = `The passkey was not used: ${err?.message ? err.message : err}`;
      }
    });
  }
})();
