// Paints the screen this device last showed at this address (src/api/snapshot.ts keeps it), before
// the app's code has loaded: inert, and hidden from assistive technology, until the app's first
// render (src/app/snapshot.ts). A classic script, so it runs while the page is parsed.
(function () {
  try {
    var shown = document.getElementById('snapshot');
    if (shown) {
      // Run again from what it wrote, once that is parsed: the CSP takes no style attribute from
      // markup, so the places the app had set through the CSSOM (a long list's rows) are set so again.
      var placed = shown.querySelectorAll('[style]');
      for (var k = 0; k < placed.length; k++) placed[k].style.cssText = placed[k].getAttribute('style');
      return;
    }
    var user = JSON.parse(localStorage.getItem('auth_user') || 'null');
    var entry = document.querySelector('script[type="module"][src]');
    if (!user || !localStorage.getItem('auth_token') || !entry) return;
    var snapshots = JSON.parse(localStorage.getItem('snapshots') || '[]');
    var path = location.pathname + location.search;
    for (var i = 0; i < snapshots.length; i++) {
      var shot = snapshots[i];
      if (shot.user !== user.id || shot.build !== entry.getAttribute('src') || shot.path !== path) continue;
      var styles = '';
      for (var j = 0; j < shot.styles.length; j++) {
        if (/^\/assets\/[\w.-]+\.css$/.test(shot.styles[j])) styles += '<link rel="stylesheet" href="' + shot.styles[j] + '">';
      }
      document.write(styles + '<div id="snapshot" inert aria-hidden="true">' + shot.html + '</div><script src="/snapshot.js"></script>');
      return;
    }
  } catch (error) {
    // Nothing painted early: the app paints as it always did.
  }
})();
