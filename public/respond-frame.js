/* Survey Service respondent page inside a frame (/embed.js or a plain iframe): tells the
 * embedding page its height, so the frame fits its content without a scrollbar. */
(() => {
  if (window.parent === window) return;
  let last = 0;
  function send() {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'survey-service:height', height: height }, '*');
  }
  window.addEventListener('load', send);
  if (window.ResizeObserver) new ResizeObserver(send).observe(document.body);
  send();
})();
