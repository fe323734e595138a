// The respondent page's one script: required answers checked in the browser before posting (the
// server checks them again).
import { inlineScript } from '../html.js';

export const SCRIPT = inlineScript(`
(function () {
  var form = document.querySelector('form[data-respond]');
  if (!form) return;
  form.addEventListener('submit', function (e) {
    var nav = e.submitter && e.submitter.value;
    if (nav === 'prev' || nav === 'exit') return;
    var first = null;
    form.querySelectorAll('.q-wrap').forEach(function (w) {
      var fields = Array.prototype.slice.call(w.querySelectorAll('input, select, textarea'));
      var filled = fields.some(function (el) {
        if (el.type === 'radio' || el.type === 'checkbox') return el.checked;
        if (el.type === 'file') return el.files.length > 0 || !!w.querySelector('.upload-current');
        return el.type !== 'hidden' && el.value.trim() !== '';
      });
      var problem = '';
      if (w.dataset.required && !filled) problem = w.dataset.requiredText;
      fields.forEach(function (el) {
        if (!problem && el.type === 'file' && el.files.length && el.files[0].size > Number(el.dataset.maxBytes || Infinity)) problem = el.dataset.tooBig;
        if (problem || !el.value) return;
        if (el.type === 'email' && !/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/.test(el.value)) problem = 'Please enter a valid email address.';
        if (el.type === 'number' && isNaN(Number(el.value))) problem = 'Please enter a number.';
      });
      var msg = w.querySelector('.js-error');
      if (problem) {
        if (!msg) { msg = document.createElement('p'); msg.className = 'error js-error'; msg.setAttribute('role', 'alert'); w.insertBefore(msg, w.firstChild); }
        msg.textContent = problem;
        first = first || w;
      } else if (msg) msg.parentNode.removeChild(msg);
    });
    if (first) { e.preventDefault(); var f = first.querySelector('input, select, textarea'); if (f) f.focus(); }
  });
})();
`);
