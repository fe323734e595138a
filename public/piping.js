// The builder's "Insert answer from…" (served at /assets/piping.js). Without script its Insert
// button posts the question form, which comes back with the recall added at the end of the
// question text; with script the recall goes in at the cursor (or over the selection) of the
// question text, and nothing is posted until the question is saved.
(() => {
  function insertAt(field, text) {
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const before = field.value.slice(0, start);
    const after = field.value.slice(end);
    const gap = before && !/\s$/.test(before) ? ' ' : '';
    field.value = `${before}${gap}${text}${after}`;
    const caret = before.length + gap.length + text.length;
    field.focus();
    field.setSelectionRange(caret, caret);
  }
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('.recall-picker button') : null;
    if (!button) return;
    const picker = button.closest('.recall-picker');
    const select = picker?.querySelector('select');
    const field = document.getElementById(picker?.dataset.target ?? '');
    if (!select || !(field instanceof HTMLTextAreaElement)) return;
    event.preventDefault();
    if (!select.value) {
      select.focus();
      return;
    }
    insertAt(field, select.value);
    select.value = '';
  });
})();
