// Progressive enhancement only: every page works without it.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field) return;
  navigator.clipboard.writeText(field.value ?? field.textContent).then(() => {
    const label = button.textContent;
    button.textContent = button.getAttribute('data-copied') || 'Copied';
    setTimeout(() => { button.textContent = label; }, 1500);
  });
});
// Confirmation for destructive buttons (revoke, remove): the form carries data-confirm.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
