/* Survey Service embed: one script tag puts a survey on a page.
 *
 *   <script src="https://surveys.example.com/embed.js" data-survey="https://surveys.example.com/r/TOKEN"
 *     data-mode="inline|popup|slide-in" data-button="Take our survey" data-delay="10" async></script>
 *
 * inline (default): the survey in the page where the tag is. popup / slide-in: a button opens it
 * (data-button, its text), or it opens by itself after data-delay seconds. The frame follows the
 * survey's height (the respondent page posts it). The survey's collector must list this page's
 * origin in its embed_origins, or the browser refuses the frame. Without script, use an <iframe>. */
(() => {
  const script = document.currentScript;
  if (!script) return;
  const src = script.getAttribute('data-survey');
  if (!src) return;
  const origin = new URL(src, location.href).origin;
  const mode = script.getAttribute('data-mode') || 'inline';
  const title = script.getAttribute('data-title') || 'Survey';

  function frame() {
    const f = document.createElement('iframe');
    f.src = src;
    f.title = title;
    f.setAttribute('loading', 'lazy');
    f.style.cssText = 'width:100%;height:480px;border:0;display:block;background:transparent';
    window.addEventListener('message', (e) => {
      if (e.origin !== origin || e.source !== f.contentWindow) return;
      const d = e.data;
      if (d && d.type === 'survey-service:height' && typeof d.height === 'number')
        f.style.height = `${Math.min(Math.max(d.height, 120), 20000)}px`;
    });
    return f;
  }

  if (mode === 'inline') {
    const box = document.createElement('div');
    box.className = 'survey-service-inline';
    box.appendChild(frame());
    script.parentNode.insertBefore(box, script.nextSibling);
    return;
  }

  const slide = mode === 'slide-in';
  let panel = null;
  let opener = null;
  function close() {
    if (!panel) return;
    panel.remove();
    panel = null;
    document.removeEventListener('keydown', onKey);
    if (opener) opener.focus();
  }
  function onKey(e) {
    if (e.key === 'Escape') close();
  }
  function open() {
    if (panel) return;
    panel = document.createElement('div');
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', title);
    if (!slide) panel.setAttribute('aria-modal', 'true');
    panel.style.cssText = slide
      ? 'position:fixed;right:16px;bottom:16px;width:min(420px,calc(100vw - 32px));max-height:80vh;overflow:auto;z-index:2147483000;background:#fff;border-radius:8px;box-shadow:0 8px 32px rgba(0,0,0,.3)'
      : 'position:fixed;inset:0;z-index:2147483000;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;padding:16px';
    const box = slide ? panel : document.createElement('div');
    if (!slide) {
      box.style.cssText =
        'background:#fff;border-radius:8px;width:min(720px,100%);max-height:90vh;overflow:auto;position:relative';
      panel.appendChild(box);
      panel.addEventListener('click', (e) => {
        if (e.target === panel) close();
      });
    }
    const x = document.createElement('button');
    x.type = 'button';
    x.textContent = 'Close';
    x.style.cssText =
      'position:sticky;top:0;float:right;margin:8px;min-height:44px;padding:0 14px;border:1px solid #555;border-radius:6px;background:#fff;color:#1b1f24;font:inherit;cursor:pointer;z-index:1';
    x.addEventListener('click', close);
    box.appendChild(x);
    box.appendChild(frame());
    document.body.appendChild(panel);
    document.addEventListener('keydown', onKey);
    x.focus();
  }

  const text = script.getAttribute('data-button');
  if (text) {
    opener = document.createElement('button');
    opener.type = 'button';
    opener.className = 'survey-service-open';
    opener.textContent = text;
    opener.addEventListener('click', open);
    script.parentNode.insertBefore(opener, script.nextSibling);
  }
  const delay = Number(script.getAttribute('data-delay'));
  if (delay >= 0 && script.hasAttribute('data-delay')) setTimeout(open, delay * 1000);
  else if (!text) open();
})();
