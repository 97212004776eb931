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
