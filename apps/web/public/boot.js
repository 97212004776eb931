// What the page does before its first paint, from one small script (the policy runs no inline script).
//
// The theme as useTheme will set it (the session's `theme` in local storage, the system's when none is picked) and
// the picked colour, on the page before its first paint: the HTML's shell and styles.css are drawn in them at once.
(function () {
  var root = document.documentElement;
  var theme = null;
  var color = null;
  try {
    theme = localStorage.getItem('theme');
    color = localStorage.getItem('theme-color');
  } catch (error) {
    // No storage (private mode): the system's theme and the default colour.
  }
  var dark = theme === 'dark' || (theme !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  root.dataset.theme = dark ? 'dark' : 'light';
  if (color && /^#[0-9a-f]{6}$/i.test(color)) root.style.setProperty('--theme-color', color);
})();

// For a visitor without a session opening 推荐 (/ or /explore): the feed's first page asked for now, while the app's
// script is still on its way, rather than after it has run. The app takes this answer once (lib/first-feed.ts) and
// asks as usual for everything else; a student with a session waits for the app, which sends their token.
(function () {
  if (location.pathname !== '/' && location.pathname !== '/explore') return;
  try {
    if (localStorage.getItem('token')) return;
  } catch (error) {
    return;
  }
  window.__firstFeed = fetch('/api/posts?page=1&limit=20', { headers: { Accept: 'application/json' } })
    .then(function (answer) {
      return answer.ok ? answer.json() : null;
    })
    .catch(function () {
      return null;
    });
})();
