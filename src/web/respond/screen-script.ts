// The script of a survey shown one question at a time (screen.ts). The form works without it; it
// adds: the question's first field focused (unless a sent-back screen's summary takes the focus),
// keys for choices (A, B, C… or 1, 2, 3…, shown beside each choice), Enter going on from a choice as
// it does from a text field (Ctrl or ⌘ with Enter in a comment box), and a short fade between
// screens, left out when the browser asks for reduced motion.
import { inlineScript } from '../html.js';

export const SCREEN_SCRIPT = inlineScript(`
(function () {
  var form = document.querySelector('form[data-screen]');
  if (!form) return;
  var screen = form.querySelector('.screen');
  var next = form.querySelector('button[name="nav"][value="next"], button[name="nav"][value="done"]');
  var hint = form.querySelector('.enter-hint');
  if (hint) hint.hidden = false;
  var still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (!still) screen.classList.add('screen-in');
  var choices = Array.prototype.slice.call(
    screen.querySelectorAll('.choices > .choice > input[type="radio"], .choices > .choice > input[type="checkbox"]'),
    0, 26);
  choices.forEach(function (input, i) {
    var key = String.fromCharCode(65 + i);
    input.setAttribute('aria-keyshortcuts', i < 9 ? key + ' ' + (i + 1) : key);
    var label = form.querySelector('label[for="' + input.id + '"]');
    if (!label) return;
    var k = document.createElement('kbd');
    k.className = 'choice-key';
    k.setAttribute('aria-hidden', 'true');
    k.textContent = key;
    label.parentNode.insertBefore(k, label);
  });
  if (!document.getElementById('problems')) {
    var first = screen.querySelector('input:checked:not([type="hidden"])') ||
      screen.querySelector('input:not([type="hidden"]), select, textarea');
    if (first) first.focus();
  }
  var typing = function (el) {
    return el && (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' ||
      (el.tagName === 'INPUT' && !/^(radio|checkbox)$/.test(el.type)));
  };
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (e.key === 'Enter') {
      if (t && t.tagName === 'TEXTAREA' ? (e.ctrlKey || e.metaKey) : (!typing(t) && (!t || !/^(BUTTON|A)$/.test(t.tagName)))) {
        e.preventDefault();
        form.requestSubmit(next);
      }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || typing(t) || e.key.length !== 1) return;
    var c = e.key.toUpperCase();
    var i = /[1-9]/.test(c) ? Number(c) - 1 : /[A-Z]/.test(c) ? c.charCodeAt(0) - 65 : -1;
    var input = choices[i];
    if (!input) return;
    e.preventDefault();
    if (input.type === 'radio') input.checked = true;
    else input.checked = !input.checked;
    input.dispatchEvent(new Event('change', { bubbles: true }));
    input.focus();
  });
  form.addEventListener('submit', function () {
    if (!still) screen.classList.add('screen-out');
  });
  window.addEventListener('pageshow', function () {
    screen.classList.remove('screen-out');
  });
})();
`);
