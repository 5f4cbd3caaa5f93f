// Paints the screen this device last showed at this address (src/api/snapshot.ts keeps it), before
// the app's code has loaded: inert, and hidden from assistive technology, until the app's first
// render (src/app/snapshot.ts); and asks for the signed-in screens' code beside boot. A classic
// script, so it runs while the page is parsed.
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
    // A signed-in start needs the screens' shared chunk, the shell and the whole catalog of its
    // language (ADR 033) once boot has run: asked for now, beside boot, they are not a second wait
    // on a slow link. The language as src/api/interface-language.ts chooses it: the visitor's
    // choice, else the installation's default as last seen, else English.
    var branding = JSON.parse(localStorage.getItem('branding') || 'null');
    var language = (localStorage.getItem('language') || (branding && branding.defaultLanguage) || 'en').trim().slice(0, 2).toLowerCase();
    var shared = document.querySelector('meta[name="signed-in-chunks"]');
    var catalog = document.querySelector('meta[name="signed-in-catalog"][lang="' + language.replace(/[^a-z]/g, '') + '"]');
    var hrefs = (shared ? shared.getAttribute('content').split(' ') : []).concat(catalog ? [catalog.getAttribute('content')] : []);
    for (var h = 0; h < hrefs.length; h++) {
      var kind = /^\/assets\/[\w.-]+\.(js|css)$/.exec(hrefs[h]);
      if (!kind) continue;
      var link = document.createElement('link');
      // A style is only fetched here: the screen that needs it adds it as a stylesheet.
      link.rel = kind[1] === 'js' ? 'modulepreload' : 'preload';
      if (kind[1] === 'css') link.as = 'style';
      link.crossOrigin = 'anonymous';
      link.href = hrefs[h];
      document.head.appendChild(link);
    }
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
