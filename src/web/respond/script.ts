// The respondent page's one script. It does not judge answers: the server's checks
// (domain/responses/checks.ts) are the one set of rules, with the owner's own messages, and the
// page they answer with (the error summary and each question's message) is the same with or
// without script. A copy of some rules here once showed its own wording and no summary.
// What script adds: the summary of a page sent back takes the focus, so a screen reader reads it.
import { inlineScript } from '../html.js';

export const SCRIPT = inlineScript(`
(function () {
  var summary = document.getElementById('problems');
  if (summary) summary.focus();
})();
`);
