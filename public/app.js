// Progressive enhancement shared by every page (served at /assets/app.js). Pages work without it.
//
// Destructive forms carry data-confirm="what will be lost". Without script the server answers such
// a form with a confirmation page; with script a <dialog> asks first and the form is sent with
// confirm=yes, so the server acts at once.
(() => {
  function confirmDialog(form) {
    const dialog = document.createElement('dialog');
    dialog.className = 'confirm-dialog';
    dialog.setAttribute('aria-labelledby', 'confirm-dialog-title');
    const title = document.createElement('h2');
    title.id = 'confirm-dialog-title';
    title.textContent = form.dataset.confirmTitle || 'Are you sure?';
    const text = document.createElement('p');
    text.textContent = form.dataset.confirm;
    const actions = document.createElement('div');
    actions.className = 'actions';
    const ok = document.createElement('button');
    ok.type = 'button';
    ok.className = 'danger';
    ok.textContent = form.dataset.confirmButton || 'Delete';
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'secondary';
    cancel.textContent = 'Cancel';
    actions.append(ok, cancel);
    dialog.append(title, text, actions);
    document.body.append(dialog);
    cancel.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    ok.addEventListener('click', () => {
      const flag = document.createElement('input');
      flag.type = 'hidden';
      flag.name = 'confirm';
      flag.value = 'yes';
      form.append(flag);
      dialog.close();
      form.submit();
    });
    dialog.showModal();
    cancel.focus();
  }

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (typeof HTMLDialogElement !== 'function') return; // the server's confirmation page asks instead
    event.preventDefault();
    confirmDialog(form);
  });
})();
