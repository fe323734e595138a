// The survey builder's drag and drop (served at /assets/builder.js with SortableJS). Each page's
// question list is sortable, and questions may be dragged to another page; a drop posts the same
// move form the page offers without script (to_page, position), then reloads the page so numbers,
// labels and buttons are the server's again. Without script the Up/Down/Move buttons do the same.
// A refused drop (e.g. a question whose skip-logic rules would then jump backward) brings the
// server's message back across the reload, shown at the top as the button's would be beside it.
(() => {
  const KEY = 'builder-refusal';
  function showRefusal() {
    const message = sessionStorage.getItem(KEY);
    if (!message) return;
    sessionStorage.removeItem(KEY);
    const p = document.createElement('p');
    p.className = 'error';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    document.querySelector('.builder')?.prepend(p);
  }
  function start() {
    showRefusal();
    if (typeof Sortable !== 'function') return;
    const csrf = document.querySelector('input[name="_csrf"]');
    if (!csrf) return;
    for (const list of document.querySelectorAll('ol.questions[data-page]')) {
      Sortable.create(list, {
        group: 'questions',
        handle: '.drag-handle',
        animation: 150,
        // Pointer events rather than native drag and drop: the same on touch screens and mice.
        forceFallback: true,
        onEnd(event) {
          if (event.from === event.to && event.oldIndex === event.newIndex) return;
          const body = new URLSearchParams({
            _csrf: csrf.value,
            to_page: event.to.dataset.page,
            position: String(event.newIndex + 1),
          });
          fetch(event.item.dataset.move, { method: 'POST', body, credentials: 'same-origin' })
            .then(async (res) => {
              if (res.ok) return;
              const page = new DOMParser().parseFromString(await res.text(), 'text/html');
              const refusal = page.querySelector('.builder .error[role=alert]');
              if (refusal) sessionStorage.setItem(KEY, refusal.textContent.trim());
            })
            .catch(() => undefined)
            .then(() => window.location.reload());
        },
      });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
