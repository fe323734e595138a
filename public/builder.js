// The survey builder's drag and drop (served at /assets/builder.js with SortableJS). Each page's
// question list is sortable, and questions may be dragged to another page; a drop posts the same
// move form the page offers without script (to_page, position), then reloads the page so numbers,
// labels and buttons are the server's again. Without script the Up/Down/Move buttons do the same.
(() => {
  function start() {
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
            .catch(() => undefined)
            .then(() => window.location.reload());
        },
      });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
